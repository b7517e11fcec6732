import type { Provider } from "./provider";

/** What a look-up's Output form may be given besides its arguments: the site to read (default: the stack config's). */
export interface LookupOptions {
  provider?: Provider;
}
