import * as fs from "node:fs";
import * as net from "node:net";
import * as path from "node:path";

/**
 * The dynamic-provider process serves gRPC until someone stops it; when its
 * engine is killed (SIGKILL, a crash) nobody does, and it lingered for half
 * an hour with its keep-alive connections. So it watches the engine: the
 * launcher passes the engine's address as the first argument, and when two
 * connection attempts in a row are refused the process exits. The plugin door
 * (pulumi-resource-vplatform) is given the same argument and watches the same way.
 */

/** The entry script of a provider process the engine started. */
const PROVIDER_ENTRY = /dynamic-provider|[\\/]plugin[\\/]main\.js$/;
export interface EngineWatch {
  stop(): void;
}

export function exitWithEngine(
  argv: string[] = process.argv,
  options: { everyMs?: number; exit?: (code: number) => void } = {},
): EngineWatch | undefined {
  // Either door's process (the dynamic-provider launcher, our plugin's main.js); in-process use (tests): nothing to watch.
  if (!PROVIDER_ENTRY.test(argv[1] ?? "")) return undefined;
  // The address is the last argument (the engine puts logging flags before it when asked to log).
  const address = /^(.+):(\d+)$/.exec(argv.at(-1) ?? "");
  if (!address) return undefined;
  const [, host, port] = address;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let misses = 0;
  const probe = () => {
    const socket = net.connect({ host: host.replace(/^\[|\]$/g, ""), port: Number(port) });
    socket.setTimeout(2_000);
    socket.once("connect", () => {
      misses = 0;
      socket.destroy();
    });
    const missed = () => {
      socket.destroy();
      if (++misses < 2) return;
      clearInterval(timer);
      console.error(`vplatform: the Pulumi engine (${address[0]}) is gone; the provider process exits`);
      exit(1);
    };
    socket.once("error", missed);
    socket.once("timeout", missed);
  };
  // Every 2 s: two misses, so gone within ~6 s of its engine (a loopback connect costs nothing).
  const timer = setInterval(probe, options.everyMs ?? 2_000);
  timer.unref(); // never what keeps the process alive
  return { stop: () => clearInterval(timer) };
}

let watching = false;

/** Once per process, from the first configure. */
export function watchEngineOnce(): void {
  if (watching) return;
  watching = true;
  exitWithEngine();
}

/**
 * NODE_OPTIONS for an engine this package starts: `existing`, and the preload that makes each provider process
 * watch its engine from its start (watchEngineFromStart.ts). Compiled beside this file; when the sources run
 * (the tests), the build's copy.
 */
export function watchFromStartOptions(existing: string | undefined): string {
  const beside = path.join(__dirname, "watchEngineFromStart.js");
  const file = fs.existsSync(beside) ? beside : path.join(__dirname, "..", "..", "dist", "provider", "client", "watchEngineFromStart.js");
  return [existing, `--require ${JSON.stringify(file)}`].filter(Boolean).join(" ");
}
