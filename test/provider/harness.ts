import * as https from "node:https";
import { type RunningEmulator, startEmulator } from "../../emulator/index";
import { jsonRequest } from "../../emulator/client/jsonRequest";
import { RESOURCE_LIST, type Resource, type ResourceToken } from "../../provider/resources";

/** Every provider under test (each declared resource's dynamic door), configured against one emulator like the engine would. */
export const providers = Object.fromEntries(RESOURCE_LIST.map((r) => [r.token, () => r.dynamic] as const)) as {
  [T in ResourceToken]: () => Resource["dynamic"];
};

export interface Lab {
  emu: RunningEmulator;
  /** Administrator test hooks (/_emulator/...) and raw API calls for arranging drift. */
  hook(method: string, path: string, body?: unknown): Promise<any>;
  api(method: string, path: string, body?: unknown): Promise<any>;
  requests(): Promise<{ total: number; entries: { method: string; table: string; count: number }[] }>;
  resetRequests(): Promise<void>;
  /**
   * What the next engine run sees: a new provider process, which has learned
   * nothing yet (the checks' copies of tables, machines it made). Rows arranged
   * with `api` after a check are seen by the checks of the next run only.
   */
  newRun(): Promise<void>;
  close(): Promise<void>;
}

/** `config`: more stack config (e.g. a short `vplatform:requestTimeoutMs` for fault tests). */
export async function startLab(config: Record<string, string> = {}): Promise<Lab> {
  const emu = await startEmulator({ port: 0, timeScale: 0.01, quiet: true });
  config = {
    "vplatform:endpoint": emu.url,
    "vplatform:apiKey": emu.apiKey,
    "vplatform:caCert": emu.caCert,
    ...config,
  };
  // As the engine does: each resource type is configured, with the same stack config.
  const configure = () =>
    Promise.all(
      Object.values(providers).map((p) => p().configure({ config: { get: (k: string) => config[k], require: (k: string) => config[k] } })),
    );
  await configure();
  const agent = new https.Agent({ ca: emu.caCert });
  const call = async (method: string, path: string, body?: unknown) => {
    const reply = await jsonRequest({ method, url: `${emu.url}${path}`, agent, body, headers: { authorization: `Bearer ${emu.apiKey}` } });
    if (reply.status >= 400) throw Object.assign(new Error(`${method} ${path}: ${reply.status} ${reply.text}`), { status: reply.status });
    return reply.body;
  };
  return {
    emu,
    hook: call,
    api: (method, path, body) => call(method, `/api/v4/${path}`, body),
    requests: () => call("GET", "/_emulator/requests"),
    resetRequests: () => call("DELETE", "/_emulator/requests"),
    async newRun() {
      // A new session: what the provider learns is kept per session, so this one starts knowing nothing.
      require("../../provider/resources/framework/sessionRegistry").dynamicSessions.closeAll();
      await configure();
    },
    close: () => emu.close(),
  };
}

/** check → create, as the engine does for a new resource. */
export async function checkedCreate(provider: any, news: Record<string, unknown>) {
  const checked = await provider.check({}, news);
  if (checked.failures?.length) throw new Error(`check failed: ${JSON.stringify(checked.failures)}`);
  const created = await provider.create(checked.inputs);
  return { id: created.id as string, outs: created.outs as Record<string, any>, inputs: checked.inputs as Record<string, any> };
}

export const mutating = (entries: { method: string }[]) => entries.filter((e) => e.method !== "GET");
