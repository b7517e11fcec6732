import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileBackendUrl } from "./file-state";

/** Where the stack's state lives, and what the engine needs to reach it. */
export interface Backend {
  /** Shown to the user: the URL, or how the engine finds it. */
  description: string;
  /** Variables for the engine's environment (the given environment's own, or the local default's). */
  env: Record<string, string>;
}

/** Pulumi Cloud's backend URL. */
const PULUMI_CLOUD = "https://api.pulumi.com";

/** Relative to the working directory: for trying the CLI out, not for a team (use a shared backend). */
export const LOCAL_STATE_DIR = path.join(".vplatform", "state");

/**
 * The backend the environment names (PULUMI_BACKEND_URL, or PULUMI_ACCESS_TOKEN for Pulumi Cloud); otherwise a
 * local file backend under the working directory (writing no sidecar a kill could leave half-written:
 * file-state.ts), with an empty passphrase unless one is set (nothing secret is in the stack's config:
 * credentials come from the environment only). A `pulumi login` recorded for other work (`loggedInTo`) is not
 * followed: its stacks are not these, and following it silently made `roster` miss the class and `drift` ask for
 * another passphrase. The description says so, with how to use it.
 */
export function chooseBackend(env: NodeJS.ProcessEnv, cwd: string, loggedInTo: string | undefined): Backend {
  const passphrase: Record<string, string> =
    env.PULUMI_CONFIG_PASSPHRASE === undefined ? {} : { PULUMI_CONFIG_PASSPHRASE: env.PULUMI_CONFIG_PASSPHRASE };
  if (env.PULUMI_BACKEND_URL)
    return { description: env.PULUMI_BACKEND_URL, env: { PULUMI_BACKEND_URL: env.PULUMI_BACKEND_URL, ...passphrase } };
  // Named outright: the engine alone would follow a `pulumi login` to elsewhere.
  if (env.PULUMI_ACCESS_TOKEN)
    return { description: "Pulumi Cloud (PULUMI_ACCESS_TOKEN)", env: { PULUMI_BACKEND_URL: PULUMI_CLOUD, ...passphrase } };
  const url = fileBackendUrl(path.resolve(cwd, LOCAL_STATE_DIR));
  const login = loggedInTo ? `; not ${loggedInTo} of \`pulumi login\`: set PULUMI_BACKEND_URL to it to use it` : "";
  return {
    description: `${url} (local default: set PULUMI_BACKEND_URL for a shared one${login})`,
    env: { PULUMI_BACKEND_URL: url, PULUMI_CONFIG_PASSPHRASE: env.PULUMI_CONFIG_PASSPHRASE ?? "" },
  };
}

/**
 * The passwords of the URLs in `urls` (`postgres://pulumi:secret@db/state`): a backend URL carries its credentials,
 * and nothing the CLI prints (its log lines, the report, the Markdown comment, the engine's errors) may show them.
 */
export function backendPasswords(...urls: (string | undefined)[]): string[] {
  return urls.flatMap((url) => {
    if (!url) return [];
    try {
      const password = decodeURIComponent(new URL(url).password);
      return password ? [password, encodeURIComponent(password)] : [];
    } catch {
      return [];
    }
  });
}

/** `text` with each of `passwords` replaced by `***`. */
export function masked(text: string, passwords: readonly string[]): string {
  return passwords.reduce((out, password) => out.split(password).join("***"), text);
}

/** The backend `pulumi login` recorded, if any (named, never followed: chooseBackend). */
export function currentLogin(env: NodeJS.ProcessEnv): string | undefined {
  const home = env.PULUMI_HOME ?? path.join(os.homedir(), ".pulumi");
  try {
    const current = JSON.parse(fs.readFileSync(path.join(home, "credentials.json"), "utf8")).current;
    return typeof current === "string" && current ? current : undefined;
  } catch {
    return undefined;
  }
}
