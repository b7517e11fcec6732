/**
 * Both doors' hosts (@pulumi/pulumi's dynamic-provider and provider servers) print every error an operation
 * throws with console.error(`${e}: ${e.stack}`) before returning it to the engine, which then shows it on the
 * resource. The print reaches the engine as the provider process's output, attached to the Stack: each error
 * read twice, the first time raw, with a JavaScript stack trace. Those echoes are dropped; the engine's
 * report on the resource, with our message, stays.
 */

/** Whether a console.error call is such an echo: one string, `<e>: <e>` followed by stack frames (or nothing). */
export function isHostErrorEcho(args: unknown[]): boolean {
  if (args.length !== 1 || typeof args[0] !== "string") return false;
  const line = args[0];
  const frames = line.search(/\n\s+at /);
  const head = frames < 0 ? line : line.slice(0, frames);
  if (head.length % 2 !== 0) return false;
  const error = head.slice(0, (head.length - 2) / 2);
  return /^\w*Error\b/.test(error) && head === `${error}: ${error}`;
}

let dropping = false;

/** Once per process (its hosts' console.error is process-wide), from the first configure or the plugin's start. */
export function dropHostErrorEchoesOnce(): void {
  if (dropping) return;
  dropping = true;
  const print = console.error.bind(console);
  console.error = (...args: unknown[]) => {
    if (!isHostErrorEcho(args)) print(...args);
  };
}
