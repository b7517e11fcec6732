/**
 * Entry point of the emulator: `startEmulator(options)` builds the context
 * (tables, seed or saved state), the users and an administrator API key, the
 * TLS certificate and the HTTPS server. See README.md.
 */
import { randomBytes } from "node:crypto";
import { join, resolve } from "node:path";
import { generate } from "selfsigned";
import { ChaosControls } from "./admin/chaos";
import { FaultInjector } from "./admin/faults";
import { SeededRandom } from "./admin/random";
import { RequestRecorder } from "./admin/recorder";
import { RequestCounter } from "./admin/requestCounter";
import { RateLimiter } from "./services/identity/rateLimit";
import { SessionStore } from "./services/identity/sessions";
import { hashPassword, seedUsers, userByName } from "./services/identity/users";
import { ManualClock, RealTimeClock } from "./engine/clock";
import { InMemoryContext, type EmulatorContext } from "./engine/context";
import { createRow } from "./engine/write";
import { ApiError } from "./model/errors";
import { SnapshotLibrary, type SnapshotInfo } from "./persistence/snapshots";
import { markRunning, refuseWhileRunning } from "./persistence/runningMark";
import { loadState, Persister, replaceState, type SavedTables } from "./persistence/store";
import { allServices, settleFeaturesAfterLoad } from "./services";
import { buildApp } from "./server/app";
import { ADMIN_CALLER } from "./model/callers";
import { IDENTITY } from "./model/names/identity";

export interface EmulatorOptions {
  port?: number; // 0 = ephemeral (default 0)
  host?: string; // default "127.0.0.1"
  adminPassword?: string; // default: random
  dataDir?: string; // persist state (journal before each answer + snapshot); absent = in memory
  fsync?: boolean; // fsync the journal before each answer (survives power loss, not only SIGKILL)
  timeScale?: number; // multiplier on durations of long operations (default 1; tests use 0.01)
  certPem?: string;
  keyPem?: string; // default: self-signed cert made at start (SAN 127.0.0.1, localhost)
  rateLimitPerHour?: number; // per API key, default 1000
  rateLimitFollowsTimeScale?: boolean; // the limit's hour is 1 h × timeScale (a whole key-hour in seconds of a test)
  volumes?: Record<string, string>; // volume name -> host directory backing it (volume_browser)
  quiet?: boolean;
  clock?: "real" | "manual"; // manual: delayed transitions wait for advanceClock / POST /_emulator/clock/advance
  randomSeed?: number; // seed of injected randomness (fault and chaos probabilities); default: the start time
  snapshotDir?: string; // named snapshots; default <dataDir>/snapshots, else ./.emulator-snapshots
  load?: string; // a named snapshot to start from
  record?: string; // record every /api request and answer to this JSON-lines file from the start
}

export interface RunningEmulator {
  url: string;
  adminUser: string;
  adminPassword: string;
  apiKey: string;
  caCert: string;
  createApiKey(opts: { user?: string; name: string; expiresAt?: number; ipAllow?: string[]; ipDeny?: string[] }): Promise<string>;
  saveSnapshot(name: string): SnapshotInfo;
  /** Replaces the whole state by a named snapshot; this emulator's admin password and API key keep working. */
  loadSnapshot(name: string): SnapshotInfo;
  /** Manual clock only: moves time forward by `ms` of platform time (default: to the last pending transition); returns how many ran. */
  advanceClock(ms?: number): number;
  close(): Promise<void>;
}

const ADMIN_KEY_NAME = "emulator-admin";

/** Builds the context with every table and its state (saved or seeded), without any server. */
export function buildContext(opts: {
  timeScale?: number;
  dataDir?: string;
  adminPassword: string;
  volumes?: Record<string, string>;
  clock?: "real" | "manual";
}): InMemoryContext {
  const timeScale = opts.timeScale ?? 1;
  const ctx = new InMemoryContext(timeScale, opts.clock === "manual" ? new ManualClock() : new RealTimeClock(timeScale));
  for (const service of allServices({ volumes: opts.volumes })) ctx.registerService(service);
  if (opts.dataDir && loadState(ctx, opts.dataDir)) {
    settleFeaturesAfterLoad(ctx); // deliveries and task runs in flight at shutdown do not resume
  } else {
    ctx.seed();
    seedUsers(ctx, opts.adminPassword);
  }
  return ctx;
}

/** Creates an API key through the table's own rules; returns the secret (shown once). */
export function createApiKeyIn(
  ctx: EmulatorContext,
  opts: { user?: string; name: string; expiresAt?: number; ipAllow?: string[]; ipDeny?: string[] },
): string {
  const user = userByName(ctx, opts.user ?? "admin");
  if (!user) throw new Error(`unknown user '${opts.user}'`);
  const { response } = createRow(
    ctx,
    ctx.store(IDENTITY.user_api_keys).def,
    {
      user: user.$key,
      name: opts.name,
      expires_type: opts.expiresAt ? "date" : "never",
      expires: opts.expiresAt ?? 0,
      ip_allow_list: (opts.ipAllow ?? []).join(","),
      ip_deny_list: (opts.ipDeny ?? []).join(","),
    },
    ADMIN_CALLER,
  );
  return String(response!.token);
}

/**
 * Replaces the state by a snapshot's tables, as after a restart (pending transitions dropped, in-flight
 * states settled), keeping the running emulator's own access: the admin password and its API key.
 */
export function loadSnapshotInto(ctx: InMemoryContext, name: string, tables: SavedTables): void {
  if (!tables.users?.rows.some((row) => row.name === "admin")) {
    throw new ApiError(422, `snapshot '${name}' has no admin user; save it again`);
  }
  const admin = userByName(ctx, "admin")!;
  const adminKey = ctx.find(IDENTITY.user_api_keys, (k) => k.name === ADMIN_KEY_NAME && k.user === admin.$key)[0];
  ctx.clock.cancelAll();
  replaceState(ctx, tables);
  settleFeaturesAfterLoad(ctx);
  const loadedAdmin = userByName(ctx, "admin")!;
  loadedAdmin.password = admin.password;
  for (const old of ctx.find(IDENTITY.user_api_keys, (k) => k.name === ADMIN_KEY_NAME)) ctx.remove(IDENTITY.user_api_keys, old.$key);
  if (adminKey) {
    const { $key, ...rest } = adminKey;
    ctx.insert(IDENTITY.user_api_keys, { ...rest, user: loadedAdmin.$key, ...(ctx.get(IDENTITY.user_api_keys, $key) ? {} : { $key }) });
  }
}

export async function startEmulator(opts: EmulatorOptions = {}): Promise<RunningEmulator> {
  const adminPassword = opts.adminPassword ?? randomBytes(12).toString("base64url");
  const host = opts.host ?? "127.0.0.1";
  if (opts.dataDir) refuseWhileRunning(opts.dataDir, "start a second emulator on it", (holder) => `use that one (${holder.url})`);
  const ctx = buildContext({ timeScale: opts.timeScale, dataDir: opts.dataDir, adminPassword, volumes: opts.volumes, clock: opts.clock });
  const admin = userByName(ctx, "admin")!;
  // A given password always wins over a saved one; a random one keeps the saved one unusable.
  admin.password = hashPassword(adminPassword);
  for (const old of ctx.find(IDENTITY.user_api_keys, (k) => k.name === ADMIN_KEY_NAME && k.user === admin.$key))
    ctx.remove(IDENTITY.user_api_keys, old.$key);
  const apiKey = createApiKeyIn(ctx, { name: ADMIN_KEY_NAME });

  const snapshotDir = opts.snapshotDir ?? (opts.dataDir ? join(opts.dataDir, "snapshots") : resolve(".emulator-snapshots"));
  const library = new SnapshotLibrary(snapshotDir);
  const persister = opts.dataDir ? new Persister(ctx, opts.dataDir, { fsync: opts.fsync }) : undefined;
  const snapshots = {
    list: () => library.list(),
    save: (name: string) => library.save(ctx, name),
    load: (name: string) => {
      loadSnapshotInto(ctx, name, library.read(ctx, name)); // read() refuses a bad file before anything changes
      persister?.flush();
      return library.list().find((s) => s.name === name)!;
    },
  };
  if (opts.load !== undefined) snapshots.load(opts.load);
  if (persister) {
    ctx.onChange = (table, rowKey) => persister.changed(table, rowKey);
    ctx.beforeAnswer = () => persister.commit();
    persister.flush();
  }

  let cert = opts.certPem;
  let key = opts.keyPem;
  if (!cert || !key) {
    const pems = await generate([{ name: "commonName", value: "localhost" }], {
      keyType: "ec",
      curve: "P-256",
      days: 365,
      algorithm: "sha256",
      extensions: [
        { name: "basicConstraints", cA: true },
        {
          name: "subjectAltName",
          altNames: [
            { type: 2, value: "localhost" },
            { type: 7, ip: "127.0.0.1" },
            ...(host !== "127.0.0.1" && host !== "localhost" && host !== "0.0.0.0" ? [{ type: 7 as const, ip: host }] : []),
          ],
        },
      ],
    } as never);
    cert = pems.cert;
    key = pems.private;
  }

  const random = new SeededRandom(opts.randomSeed);
  const recorder = new RequestRecorder();
  if (opts.record) recorder.start(opts.record);
  const rateLimitWindowMs = opts.rateLimitFollowsTimeScale ? 3_600_000 * (opts.timeScale ?? 1) : undefined;
  const app = await buildApp({
    ctx,
    sessions: new SessionStore(),
    rateLimiter: new RateLimiter(opts.rateLimitPerHour ?? 1000, Date.now, rateLimitWindowMs),
    faults: new FaultInjector(() => random.next()),
    chaos: new ChaosControls(() => random.next()),
    random,
    recorder,
    counter: new RequestCounter(),
    snapshots,
    clock: ctx.clock,
    https: { cert, key },
  });
  await app.listen({ port: opts.port ?? 0, host });
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : opts.port;
  const urlHost = host === "0.0.0.0" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;

  const url = `https://${urlHost}:${port}`;
  const unmark = opts.dataDir ? markRunning(opts.dataDir, url) : undefined;
  let closed = false;
  return {
    url,
    adminUser: "admin",
    adminPassword,
    apiKey,
    caCert: cert,
    createApiKey: async (o) => createApiKeyIn(ctx, o),
    saveSnapshot: snapshots.save,
    loadSnapshot: snapshots.load,
    advanceClock: (ms) => {
      if (!(ctx.clock instanceof ManualClock)) throw new Error('advanceClock needs startEmulator({ clock: "manual" })');
      const ran = ctx.clock.advance(ms);
      ctx.beforeAnswer();
      return ran;
    },
    close: async () => {
      if (closed) return;
      closed = true;
      ctx.close();
      await app.close();
      recorder.stop();
      persister?.close();
      unmark?.();
    },
  };
}
