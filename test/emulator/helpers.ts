/**
 * Test client for the emulator over real HTTPS (node:https with the
 * emulator's CA certificate), plus a per-file emulator start/stop.
 */
import https from "node:https";
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../emulator";
import { jsonRequest, type JsonReply } from "../../emulator/client/jsonRequest";

export type Reply = JsonReply;

export type Auth = { bearer: string } | { basic: [string, string] } | { token: string } | "none";

export interface Client {
  emu: RunningEmulator;
  request(
    method: string,
    path: string,
    opts?: { body?: unknown; raw?: string; auth?: Auth; headers?: Record<string, string> },
  ): Promise<Reply>;
  get(path: string, auth?: Auth): Promise<Reply>;
  post(path: string, body: unknown, auth?: Auth): Promise<Reply>;
  put(path: string, body: unknown, auth?: Auth): Promise<Reply>;
  del(path: string, auth?: Auth): Promise<Reply>;
  /** Polls GET path until `done(body)` holds. */
  waitFor(path: string, done: (body: any) => boolean, attempts?: number): Promise<any>;
  /** Creates a VM with the admin key; returns {vm, machine} keys as strings. */
  createVm(body: Record<string, unknown>): Promise<{ vm: string; machine: string }>;
}

function authHeader(auth: Auth): Record<string, string> {
  if (auth === "none") return {};
  if ("bearer" in auth) return { authorization: `Bearer ${auth.bearer}` };
  if ("token" in auth) return { "x-service-token": auth.token };
  return { authorization: `Basic ${Buffer.from(`${auth.basic[0]}:${auth.basic[1]}`).toString("base64")}` };
}

export async function startTestEmulator(opts: EmulatorOptions = {}): Promise<Client> {
  const emu = await startEmulator({ timeScale: 0.01, quiet: true, ...opts });
  const agent = new https.Agent({ ca: emu.caCert, keepAlive: true });
  const request: Client["request"] = (method, path, o = {}) =>
    jsonRequest({
      method,
      url: `${emu.url}${path}`,
      agent,
      body: o.body,
      raw: o.raw,
      headers: { ...authHeader(o.auth ?? { bearer: emu.apiKey }), ...o.headers },
    });
  const client: Client = {
    emu,
    request,
    get: (path, auth) => request("GET", path, { auth }),
    post: (path, body, auth) => request("POST", path, { body, auth }),
    put: (path, body, auth) => request("PUT", path, { body, auth }),
    del: (path, auth) => request("DELETE", path, { auth }),
    async waitFor(path, done, attempts = 200) {
      for (let i = 0; i < attempts; i++) {
        const reply = await request("GET", path);
        if (reply.status === 200 && done(reply.body)) return reply.body;
        await new Promise((r) => setTimeout(r, 10));
      }
      throw new Error(`condition on ${path} not reached`);
    },
    async createVm(body) {
      const reply = await request("POST", "/api/v4/vms", { body });
      if (reply.status !== 201) throw new Error(`VM creation failed: ${reply.status} ${reply.text}`);
      return { vm: reply.body.$key, machine: reply.body.response.machine };
    },
  };
  const close = emu.close;
  emu.close = async () => {
    agent.destroy();
    await close();
  };
  return client;
}

/** Powers a VM on and waits until its machine status is running. */
export async function powerOnAndWait(c: Client, vm: string, machine: string): Promise<void> {
  const reply = await c.post("/api/v4/vm_actions", { vm, action: "poweron", params: {} });
  if (reply.status !== 201) throw new Error(`poweron failed: ${reply.status} ${reply.text}`);
  await c.waitFor(`/api/v4/machine_status/${machine}`, (s) => s.status === "running");
}
