#!/usr/bin/env node
/** Command line of the emulator (the package's `vplatform-emulator`; see README.md and USAGE below). */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { buildContext, createApiKeyIn, startEmulator } from "./index";
import { Persister } from "./persistence/store";

/** What --help prints: a string of the program, since the compiled file's comments sit behind compiled JavaScript. */
const USAGE = `Usage:
  vplatform-emulator --port 8443 --admin-password s3cret [--host 127.0.0.1] [--data-dir ./state]
                     [--time-scale 1] [--cert cert.pem --key key.pem] [--rate-limit 1000] [--volume name=dir]... [--fsync]
    prints one line, the base URL, and serves until SIGINT/SIGTERM or until the process that started it exits
    (state is flushed first).
  vplatform-emulator --data-dir ./state --create-api-key <name> [--user admin] [--expires-days 30]
    adds an API key to the saved state (emulator stopped) and prints its secret.
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
  const { values } = parseArgs({
    options: {
      port: { type: "string" }, host: { type: "string" }, "admin-password": { type: "string" }, "data-dir": { type: "string" },
      "time-scale": { type: "string" }, cert: { type: "string" }, key: { type: "string" }, "rate-limit": { type: "string" },
      volume: { type: "string", multiple: true }, "create-api-key": { type: "string" }, user: { type: "string" },
      "expires-days": { type: "string" }, fsync: { type: "boolean" }, help: { type: "boolean" },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  if (values["create-api-key"] !== undefined) {
    const dataDir = values["data-dir"] ?? fail("--create-api-key needs --data-dir (stop the emulator using it first)");
    const ctx = buildContext({ dataDir, adminPassword: values["admin-password"] ?? Math.random().toString(36) });
    const days = number(values["expires-days"], "expires-days");
    const secret = createApiKeyIn(ctx, {
      name: values["create-api-key"], user: values.user ?? "admin",
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
  });
  process.stdout.write(`${emulator.url}\n`);
  const stop = () => {
    emulator.close().then(() => process.exit(0), () => process.exit(1));
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

main().catch((e: Error) => fail(e.message));
