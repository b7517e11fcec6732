// Issue 20, "a key made in code is used in code", under the real engine: a program declares a
// pipeline's User and ApiKey, and an explicit provider configured with the key's secret output
// creates a VM. Rotation replaces the key (create before delete); an expired key is refreshed away
// and planned again; the secret and the password never show in plain text anywhere the engine writes.
// The emulator runs on its manual clock: a key expires when the test advances the platform's time
// past its date, never by waiting (and ahead of ours, so only the platform's clock can tell).
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { EngineEvent, LocalWorkspace, PulumiFn } from "@pulumi/pulumi/automation";
import got from "got";
import { type RunningEmulator, startEmulator } from "../../emulator/index";
import { collect, startE2e, statusWithKey, storedState, type E2eContext } from "./harness";
import { Site, resource } from "./pluginResources";

const PASSWORD = "e2e-pipeline-pw-7d21";
const HOUR = 3600_000;
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d+Z$/, "Z");

/** What the program declares; the tests change it between runs. */
const declared = { rotation: "1", shortExpires: iso(Date.now() + 24 * HOUR) };

const program: PulumiFn = async () => {
  const vp = require("vplatform");
  const ci = new vp.User("ci", { name: "e2e-ci", displayName: "CI pipeline", role: "admin", password: PASSWORD });
  const key = new vp.ApiKey("ci-key", {
    user: ci.id,
    name: "ci",
    description: "the pipeline's key",
    ipAllowList: [{ address: "127.0.0.0/8" }],
    rotation: declared.rotation,
  });
  const short = new vp.ApiKey("short", { user: ci.id, name: "short", expires: declared.shortExpires });
  const site = new Site("as-ci", { ...connection(), apiKey: key.secret as unknown as string });
  const vm = resource("VirtualMachine", "built-by-ci", { name: "e2e-built-by-ci", cpuCores: 1, ram: 1024 }, { provider: site });
  return { keyId: key.id, secret: key.secret, shortId: short.id, vmKey: vm.id, userId: ci.id };
};

let ctx: E2eContext;
let emulator: RunningEmulator;
const connection = () => ({ endpoint: ctx.emulator.url, caCert: ctx.emulator.caCert });
const as = (secret: string) => statusWithKey(ctx.emulator, secret);

const stateText = () => storedState(ctx);
const adminCall = (method: "PUT" | "DELETE", route: string, json?: object) =>
  got(`${emulator.url}${route}`, {
    method,
    json,
    username: emulator.adminUser,
    password: emulator.adminPassword,
    https: { certificateAuthority: emulator.caCert },
  });

const secrets: string[] = [];
/** The engine's and the Node.js SDK's -v=9 traces of marshaled properties (see the last test). */
const ENGINE_TRACE =
  /"msg":"(eventSink::Debug\(<\{%reset%\}>)?(Marshaling property for RPC|Unmarshaling property for RPC|RegisterResource RPC finished)/;
let first: { keyId: string; secret: string; vmKey: string };

/** The platform's time, as its answers tell it (the Date header; the manual clock stands still between advances). */
async function platformNow(): Promise<number> {
  const res = await got(`${emulator.url}/version.json`, { https: { certificateAuthority: emulator.caCert } });
  return Date.parse(res.headers.date!);
}

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, timeScale: 0.01, quiet: true, clock: "manual" });
  ctx = await startE2e("apikeys", program, emulator);
}, 120_000);
afterAll(async () => ctx?.dispose());

describe("a key made in code is used in code", () => {
  test("up creates the user and its key, and a provider configured with the key's secret output creates a VM", async () => {
    const up = await ctx.stack.up(collect(ctx));
    expect(up.summary.result).toBe("succeeded");
    first = { keyId: up.outputs.keyId.value, secret: up.outputs.secret.value, vmKey: up.outputs.vmKey.value };
    expect(up.outputs.secret.secret).toBe(true);
    secrets.push(first.secret);
    expect(await as(first.secret)).toBe(200);
    const vm = (await ctx.api("GET", `/v4/vms/${first.vmKey}?fields=name`)).body;
    expect(vm).toMatchObject({ name: "e2e-built-by-ci" });
    // The VM was made with the key: the key has authenticated.
    const keyRow = (await ctx.api("GET", `/v4/user_api_keys/${first.keyId}?fields=user,lastlogin_stamp,ip_allow_list`)).body;
    expect(keyRow).toMatchObject({ user: Number(up.outputs.userId.value), ip_allow_list: "127.0.0.0/8" });
    expect(Number(keyRow.lastlogin_stamp)).toBeGreaterThan(0);
  }, 300_000);
});

describe("rotation replaces the key, the new one made before the old one is deleted", () => {
  test("preview plans a create-before-delete replacement of the key only", async () => {
    declared.rotation = "2";
    const preview = await ctx.stack.preview({ ...collect(ctx), diff: true });
    expect(preview.changeSummary).toMatchObject({ replace: 1 });
  }, 120_000);

  test("up: the new secret authenticates, the old one gets 401, the VM stays", async () => {
    const events: EngineEvent[] = [];
    const recording = path.join(os.tmpdir(), `apikeys-rotation-${process.pid}.jsonl`);
    await adminCall("PUT", "/_emulator/recorder", { file: recording });
    const up = await ctx.stack.up({ ...collect(ctx), onEvent: (e) => events.push(e) });
    await adminCall("DELETE", "/_emulator/recorder");
    expect(up.summary.resourceChanges).toMatchObject({ replace: 1 });
    const steps = events.flatMap((e) =>
      e.resOutputsEvent?.metadata.urn.endsWith("ApiKey::ci-key") ? [e.resOutputsEvent.metadata.op] : [],
    );
    // Create before delete: the new key exists (and the provider using it is configured) before the old one is revoked.
    expect(steps.filter((op) => op !== "same")).toEqual(["create-replacement", "replace", "delete-replaced"]);
    // ... and on the platform: the key's requests are the new key's POST, then the old key's DELETE, nothing else.
    const keyRequests = fs
      .readFileSync(recording, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { method: string; url: string; status: number })
      .filter((r) => r.method !== "GET" && /\/v4\/user_api_keys\b/.test(r.url))
      .map((r) => `${r.method} ${r.url.replace(/^\/api/, "").replace(/\?.*$/, "")} ${r.status}`);
    fs.rmSync(recording, { force: true });
    expect(keyRequests).toEqual(["POST /v4/user_api_keys 201", `DELETE /v4/user_api_keys/${first.keyId} 200`]);
    const printed = events.map((e) => JSON.stringify(e.diagnosticEvent?.message ?? "")).join("\n");
    expect(printed).not.toMatch(/interrupted create|taking over the row/);
    const secret = up.outputs.secret.value as string;
    secrets.push(secret);
    expect(secret).not.toBe(first.secret);
    expect(up.outputs.keyId.value).not.toBe(first.keyId);
    expect(await as(secret)).toBe(200);
    expect(await as(first.secret)).toBe(401);
    expect(up.outputs.vmKey.value).toBe(first.vmKey);
    expect((await ctx.stack.preview(collect(ctx))).changeSummary).not.toHaveProperty("replace");
  }, 300_000);
});

describe("an expired key is refreshed away and the next preview plans it again", () => {
  test("refresh reports the expired key gone; preview asks for a later date by name, then plans its creation", async () => {
    declared.shortExpires = iso((await platformNow()) + HOUR);
    expect((await ctx.stack.up(collect(ctx))).summary.resourceChanges).toMatchObject({ update: 1 });
    const shortId = (await ctx.stack.outputs()).shortId.value;
    emulator.advanceClock(2 * HOUR);
    // Past on the platform, still ahead on ours: the provider judges by the platform's clock.
    expect(Date.parse(declared.shortExpires)).toBeGreaterThan(Date.now());
    const refresh = await ctx.stack.refresh(collect(ctx));
    expect(refresh.summary.resourceChanges).toMatchObject({ delete: 1 });
    const urns = (await ctx.stack.exportStack()).deployment.resources.map((r: { urn: string }) => r.urn);
    expect(urns.filter((urn: string) => urn.endsWith("ApiKey::short"))).toEqual([]);
    // The platform deletes an expired key once used: our read judged it by its date.
    expect((await ctx.api("GET", `/v4/user_api_keys/${shortId}?fields=name`)).status).toBe(200);
    await expect(ctx.stack.preview(collect(ctx))).rejects.toThrow(/expires .* is in the past/);
    declared.shortExpires = iso((await platformNow()) + HOUR);
    expect((await ctx.stack.preview(collect(ctx))).changeSummary).toMatchObject({ create: 1 });
  }, 300_000);
});

describe("the secret and the password never appear in plain text", () => {
  test("state file, stack export and the engine's output hold neither; in a -v=9 log only the engine's own property traces do", async () => {
    const verbose: string[] = [];
    await ctx.stack.refresh({ ...collect(ctx), logVerbosity: 9, logToStdErr: true, onError: (s) => verbose.push(s) });
    await ctx.stack.preview({ ...collect(ctx), diff: true, logVerbosity: 9, logToStdErr: true, onError: (s) => verbose.push(s) });
    expect(verbose.join("").length).toBeGreaterThan(10_000); // the log was really written
    // `pulumi stack export` as a user runs it (the automation API's exportStack adds --show-secrets).
    const ws = ctx.stack.workspace as LocalWorkspace;
    const exported = execFileSync(ws.pulumiCommand.command, ["stack", "export", "--stack", ctx.stack.name], {
      cwd: ws.workDir,
      env: { ...process.env, PULUMI_HOME: ws.pulumiHome, ...ws.envVars },
      encoding: "utf8",
    });
    expect(exported).toContain("ApiKey::ci-key");
    for (const plain of [...secrets, PASSWORD]) {
      expect(stateText()).not.toContain(plain);
      expect(exported).not.toContain(plain);
      expect(ctx.output.join("")).not.toContain(plain);
      // The engine itself traces every property it marshals at -v=9, filtering only config secrets: those lines
      // are Pulumi's; no other line (none of the provider's, the client's or the plan's) may hold the value.
      expect(
        verbose
          .join("")
          .split("\n")
          .filter((line) => line.includes(plain) && !ENGINE_TRACE.test(line)),
      ).toEqual([]);
    }
  }, 300_000);
});
