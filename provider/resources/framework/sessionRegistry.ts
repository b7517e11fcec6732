import { SETTING_NAMES, settingKey } from "../../config/provider-config";
import type { PlatformApi } from "../../reconcile/platform";
import { platformApiFromConfig } from "../../reconcile/platformClient";
import { Session } from "../../reconcile/session";

type ConfigGetter = (key: string) => string | undefined;

/**
 * The dynamic door's sessions. `pulumi-resource-pulumi-nodejs` loads every
 * `vplatform/dynamic/<type>` module into one process and calls configure once
 * per resource type with the stack config, then create/read/... with no
 * config: each type keeps the session of the configuration it was given, and
 * types given the same settings share one session (one client, one request
 * budget, one set of machine locks). A session no type uses any more is closed.
 */
export class SessionRegistry {
  readonly #byConfiguration = new Map<string, Session>();
  /** Resource type → the configuration (its settings as JSON) it was given. */
  readonly #configurationOf = new Map<string, string>();

  constructor(private readonly build: (get: ConfigGetter) => PlatformApi = platformApiFromConfig) {}

  configure(type: string, get: ConfigGetter): void {
    const configuration = JSON.stringify(SETTING_NAMES.map((s) => get(settingKey(s)) ?? null));
    const before = this.#configurationOf.get(type);
    this.#configurationOf.set(type, configuration);
    if (!this.#byConfiguration.has(configuration)) this.#byConfiguration.set(configuration, new Session(this.build(get)));
    if (before !== undefined && before !== configuration) this.#closeUnused(before);
  }

  sessionOf(type: string): Session {
    const session = this.#byConfiguration.get(this.#configurationOf.get(type) ?? "");
    if (!session) throw new Error(`vplatform: internal error: ${type} was used before the engine configured it`);
    return session;
  }

  /** Ends every session (what a new provider process would start from). */
  closeAll(): void {
    for (const session of this.#byConfiguration.values()) session.close();
    this.#byConfiguration.clear();
    this.#configurationOf.clear();
  }

  #closeUnused(configuration: string): void {
    if ([...this.#configurationOf.values()].includes(configuration)) return;
    this.#byConfiguration.get(configuration)?.close();
    this.#byConfiguration.delete(configuration);
  }
}

/**
 * The one piece of module state the provider allows: the dynamic door has nowhere else to keep a session between
 * calls, nor have the SDK's look-ups in a program (sdk/programLookups.ts).
 */
export const dynamicSessions = new SessionRegistry();
