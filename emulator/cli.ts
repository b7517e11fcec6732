#!/usr/bin/env node
/** Command line of the emulator (the package's `vplatform-emulator`; see README.md and USAGE below). */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { join, resolve } from "node:path";
import { readRecording, replay } from "./admin/replay";
import { buildContext, createApiKeyIn, loadSnapshotInto, startEmulator } from "./index";
import { refuseWhileRunning } from "./persistence/runningMark";
import { SnapshotLibrary } from "./persistence/snapshots";
import { Persister } from "./persistence/store";

/** What --help prints: a string of the program, since the compiled file's comments sit behind compiled JavaScript. */
const USAGE = `Usage:
  vplatform-emulator --port 8443 --admin-password s3cret [--host 127.0.0.1] [--data-dir ./state]
                     [--time-scale 1] [--cert cert.pem --key key.pem] [--rate-limit 1000] [--volume name=dir]... [--fsync]
                     [--clock manual] [--random-seed N] [--record requests.jsonl] [--load NAME] [--snapshot-dir DIR]
    prints one line, the base URL, and serves until SIGINT/SIGTERM or until the process that started it exits
    (state is flushed first).
  vplatform-emulator --data-dir ./state --create-api-key <name> [--user admin] [--expires-days 30]
    adds an API key to the saved state (emulator stopped: refused while one runs on the directory) and prints its secret.
  vplatform-emulator snapshot save|load NAME --data-dir ./state [--snapshot-dir DIR]
    saves the state of a stopped emulator as a named snapshot, or replaces it by one (refused while one runs on it).
  vplatform-emulator snapshot list [--data-dir ./state | --snapshot-dir DIR]
  vplatform-emulator replay requests.jsonl --target https://127.0.0.1:8443 --api-key KEY [--ca ca.pem] [--ignore f1,f2]
    sends a recording to another emulator at the pace it was recorded (a status read then finds a power change as
    far along as it was; start the target with the source's --time-scale) and prints each answer that differs
    (exit 1 when any does).
`;

function fail(message: string): never {
  process.stderr.write(`emulator: ${message}\n`);
  process.exit(2);
}

function number(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) fail(`--${name} needs a non-negative number`);
  return n;
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    options: {
      port: { type: "string" },
      host: { type: "string" },
      "admin-password": { type: "string" },
      "data-dir": { type: "string" },
      "time-scale": { type: "string" },
      cert: { type: "string" },
      key: { type: "string" },
      "rate-limit": { type: "string" },
      volume: { type: "string", multiple: true },
      "create-api-key": { type: "string" },
      user: { type: "string" },
      "expires-days": { type: "string" },
      fsync: { type: "boolean" },
      help: { type: "boolean" },
      clock: { type: "string" },
      "random-seed": { type: "string" },
      record: { type: "string" },
      load: { type: "string" },
      "snapshot-dir": { type: "string" },
      target: { type: "string" },
      "api-key": { type: "string" },
      ca: { type: "string" },
      ignore: { type: "string" },
    },
    strict: true,
    allowPositionals: true,
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const dataDir = values["data-dir"];
  const snapshotDir = values["snapshot-dir"] ?? (dataDir ? join(dataDir, "snapshots") : resolve(".emulator-snapshots"));
  const [command, ...args] = positionals;
  if (command === "snapshot") return snapshotCommand(args, values["data-dir"], new SnapshotLibrary(snapshotDir));
  if (command === "replay") {
    const target = values.target ?? fail("replay needs --target URL (the emulator to send the recording to)");
    const apiKey = values["api-key"] ?? fail("replay needs --api-key KEY (an administrator key of the target)");
    const file = args[0] ?? fail("replay needs the recording: replay FILE --target URL --api-key KEY");
    const ignore = new Set(values.ignore ? values.ignore.split(",") : []);
    const exchanges = readRecording(file);
    const ca = values.ca ? readFileSync(values.ca, "utf8") : undefined;
    const found = await replay(exchanges, { url: target.replace(/\/$/, ""), apiKey, ca }, ignore);
    for (const { seq, request, differences } of found) {
      process.stdout.write(`#${seq} ${request}\n${differences.map((d) => `  ${d}\n`).join("")}`);
    }
    process.stdout.write(`${found.length} of ${exchanges.length} answers differ\n`);
    process.exitCode = found.length ? 1 : 0;
    return;
  }
  if (command !== undefined) fail(`unknown command '${command}' (snapshot, replay; see --help)`);
  if (values.clock !== undefined && values.clock !== "manual" && values.clock !== "real") fail("--clock is real or manual");
  if (values["create-api-key"] !== undefined) {
    const dataDir = values["data-dir"] ?? fail("--create-api-key needs --data-dir (stop the emulator using it first)");
    refuseWhileRunning(dataDir, "add an API key to it", (holder) => `create the key through it: POST ${holder.url}/api/v4/user_api_keys`);
    const ctx = buildContext({ dataDir, adminPassword: values["admin-password"] ?? Math.random().toString(36) });
    const days = number(values["expires-days"], "expires-days");
    const secret = createApiKeyIn(ctx, {
      name: values["create-api-key"],
      user: values.user ?? "admin",
      ...(days ? { expiresAt: Math.floor(Date.now() / 1000) + Math.round(days * 86400) } : {}),
    });
    new Persister(ctx, dataDir).close();
    ctx.close();
    process.stdout.write(`${secret}\n`);
    return;
  }
  if ((values.cert === undefined) !== (values.key === undefined)) fail("--cert and --key go together");
  const volumes: Record<string, string> = {};
  for (const entry of values.volume ?? []) {
    const [name, dir] = entry.split("=");
    if (!name || !dir) fail(`--volume needs name=dir, got '${entry}'`);
    volumes[name] = dir;
  }
  const emulator = await startEmulator({
    port: number(values.port, "port") ?? 8443,
    host: values.host,
    adminPassword: values["admin-password"],
    dataDir: values["data-dir"],
    fsync: values.fsync,
    timeScale: number(values["time-scale"], "time-scale"),
    certPem: values.cert ? readFileSync(values.cert, "utf8") : undefined,
    keyPem: values.key ? readFileSync(values.key, "utf8") : undefined,
    rateLimitPerHour: number(values["rate-limit"], "rate-limit"),
    volumes,
    quiet: true,
    clock: values.clock as "real" | "manual" | undefined,
    randomSeed: number(values["random-seed"], "random-seed"),
    record: values.record,
    load: values.load,
    snapshotDir,
  });
  process.stdout.write(`${emulator.url}\n`);
  const stop = () => {
    emulator.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  stopWhenOrphaned(stop);
}

/**
 * `npx vplatform-emulator &` runs this process under npm: killing npm does not reach it, so it would keep its port.
 * Re-parented (its starter gone), it stops as on SIGTERM.
 */
function stopWhenOrphaned(stop: () => void): void {
  const starter = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid === starter) return;
    clearInterval(watch);
    stop();
  }, 500);
  watch.unref();
}

/** `snapshot save|load NAME` on the state of a stopped emulator (`--data-dir`), `snapshot list`. */
function snapshotCommand([action, name]: string[], dataDir: string | undefined, library: SnapshotLibrary): void {
  if (action === "list") {
    for (const s of library.list()) process.stdout.write(`${s.name}\t${s.bytes} bytes\t${new Date(s.savedAt).toISOString()}\n`);
    return;
  }
  if (action !== "save" && action !== "load") fail("snapshot needs save, load or list");
  if (!name) fail(`snapshot ${action} needs a NAME`);
  const dir = dataDir ?? fail(`snapshot ${action} needs --data-dir (of a stopped emulator; a running one: POST /_emulator/snapshots)`);
  // A running emulator's directory holds what it last flushed, not its state: saving it would save the past.
  refuseWhileRunning(dir, action === "load" ? `load snapshot '${name}' into it` : `save its state as snapshot '${name}'`, (holder) =>
    action === "load"
      ? `load it into the running one: POST ${holder.url}/_emulator/snapshots/${name}/load`
      : `save the running one's state: POST ${holder.url}/_emulator/snapshots {"name": "${name}"}`,
  );
  const ctx = buildContext({ dataDir: dir, adminPassword: Math.random().toString(36) });
  try {
    if (action === "save") {
      const info = library.save(ctx, name);
      process.stdout.write(`${info.file}\n`);
    } else {
      loadSnapshotInto(ctx, name, library.read(ctx, name));
      new Persister(ctx, dir).close();
      process.stdout.write(`${dir}: state replaced by snapshot '${name}'\n`);
    }
  } finally {
    ctx.close();
  }
}

main().catch((e: Error) => fail(e.message));
