/**
 * An emulator (time scale 0.01, optionally with NAS volumes) and the
 * provider's platform API on it, for the automation operations' tests; plus
 * raw HTTPS calls with any credential, to see what the platform does with a
 * key, and the request counter.
 */
import { randomBytes } from "node:crypto";
import * as https from "node:https";
import { jsonRequest, type JsonReply } from "../../../emulator/client/jsonRequest";
import { startEmulator, type RunningEmulator } from "../../../emulator/index";
import type { RequestEvent } from "../../../provider/client/api-client";
import { platformApiFromConfig } from "../../../provider/reconcile/platformClient";
import { Session } from "../../../provider/reconcile/session";

/** Starting an emulator (a certificate, the tables) takes a few seconds on a busy machine: the set-up hooks wait this long. */
export const STARTUP_MS = 30_000;

export interface Site {
  emu: RunningEmulator;
  api: Session;
  /** Every request event the provider's client reported. */
  events: RequestEvent[];
  /** A raw request; `bearer` replaces the administrator's key. */
  call(method: string, path: string, body?: unknown, bearer?: string): Promise<JsonReply>;
  requests(): Promise<{ entries: { method: string; table: string; count: number }[] }>;
  resetRequests(): Promise<void>;
  close(): Promise<void>;
}

/** `config`: more provider settings (e.g. a short `vplatform:requestTimeoutMs` for fault tests). */
export async function startSite(opts: { volumes?: Record<string, string>; config?: Record<string, string> } = {}): Promise<Site> {
  const emu = await startEmulator({ port: 0, timeScale: 0.01, quiet: true, volumes: opts.volumes });
  const config: Record<string, string> = {
    "vplatform:endpoint": emu.url,
    "vplatform:apiKey": emu.apiKey,
    "vplatform:caCert": emu.caCert,
    ...opts.config,
  };
  const events: RequestEvent[] = [];
  const api = new Session(platformApiFromConfig((k) => config[k], { onRequest: (e) => events.push(e) }));
  const agent = new https.Agent({ ca: emu.caCert });
  const call = (method: string, path: string, body?: unknown, bearer = emu.apiKey) =>
    jsonRequest({ method, url: `${emu.url}${path}`, agent, body, headers: { authorization: `Bearer ${bearer}` } });
  return {
    emu,
    api,
    events,
    call,
    requests: async () => (await call("GET", "/_emulator/requests")).body,
    resetRequests: async () => void (await call("DELETE", "/_emulator/requests")),
    async close() {
      api.close?.();
      agent.destroy();
      await emu.close();
    },
  };
}

/** GETs (or other requests) of `table` the counter saw. */
export const countOf = (c: { entries: { method: string; table: string; count: number }[] }, method: string, table: string) =>
  c.entries.filter((e) => e.method === method && e.table === table).reduce((sum, e) => sum + e.count, 0);

/** Options of one create: a marker of its own (as each resource has), and a create budget. */
export const once = () => ({ marker: randomBytes(6).toString("hex"), budgetMs: 30_000 });
