// Loaded into every Node.js process of a measured command (NODE_OPTIONS=--require, set by the fixed-cost
// scenario only): appends to $VPLATFORM_BENCH_MARKS the moments a process reaches, as JSON lines, so the
// scenario can split a command's wall time. Nothing here runs in a user's command.
import * as fs from "node:fs";
import Module = require("node:module");

const file = process.env.VPLATFORM_BENCH_MARKS;
const seen = new Set<string>();

/** The wall-clock now in ms, sub-millisecond: the marks of several processes are compared. */
const now = () => performance.timeOrigin + performance.now();

function mark(name: string, once = true): void {
  if (!file || (once && seen.has(name))) return;
  seen.add(name);
  fs.appendFileSync(file, `${JSON.stringify({ pid: process.pid, mark: name, at: now(), role: role() })}\n`);
}

/** What this process is, from its command line. */
function role(): string {
  // `node -e` runs of the launchers and the language host (resolving a module path) are none of the roles.
  if (process.execArgv.some((a) => a === "-e" || a === "-p" || a === "--eval" || a === "--print")) return "eval";
  const args = process.argv.slice(1).join(" ");
  if (args.includes("cmd/dynamic-provider")) return "dynamic-provider";
  if (/cmd[\\/]run-plugin|pulumi-resource-vplatform|provider[\\/]plugin[\\/]main/.test(args)) return "plugin";
  if (args.includes("cmd/run")) return "program";
  if (args.includes("env/cli")) return "cli";
  return "other";
}

/** A module's exported function, wrapped to mark its first call (modules call each other's exports by property). */
function onFirstCall(exports: Record<string, unknown>, names: string[], name: string): void {
  for (const key of names) {
    const original = exports[key];
    if (typeof original !== "function") continue;
    exports[key] = function (this: unknown, ...args: unknown[]) {
      mark(name);
      return original.apply(this, args);
    };
  }
}

if (file) {
  mark("node");
  const load = (Module as unknown as { _load: (request: string, parent: unknown, isMain: boolean) => unknown })._load;
  (Module as unknown as { _load: typeof load })._load = function (request, parent, isMain) {
    const exports = load.call(this, request, parent, isMain) as Record<string, unknown>;
    if (request === "@pulumi/pulumi" && !seen.has("pulumi-sdk")) mark("pulumi-sdk");
    if (/runtime[\\/]resource$/.test(request) && exports && !seen.has("registration-hooked")) {
      seen.add("registration-hooked");
      onFirstCall(exports, ["registerResource", "readResource"], "first-registration");
    }
    if (/dist[\\/]provider[\\/]dynamic[\\/]|vplatform[\\/](dynamic|provider)[\\/]/.test(request) && !seen.has("provider-code")) {
      mark("provider-code");
      onFirstCall(exports, ["configure", "check", "diff", "read", "create", "update", "delete"], "first-provider-call");
    }
    return exports;
  };
  onFirstCall(require("node:https"), ["request"], "first-request");
  // A plugin is ready when it prints its port (the engine's handshake).
  if (role() === "plugin") onFirstCall(process.stdout as unknown as Record<string, unknown>, ["write"], "ready");
  process.on("exit", () => mark("exit"));
}
