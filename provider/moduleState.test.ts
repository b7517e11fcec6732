// No module state that one operation writes and another reads: what operations
// share lives in the session of their provider configuration
// (provider/reconcile/session.ts). This test reads every source file of the
// provider, the SDK and the environment runner (tests excluded) and fails on a
// `let` or a mutable collection or stateful object at module scope that is not
// in the short list below.
import * as fs from "node:fs";
import * as path from "node:path";

const root = path.resolve(__dirname, "..");

/** The only module state allowed, each with why it is process-wide. */
const ALLOWED: Record<string, string> = {
  // The dynamic door is handed config in configure() only: its sessions must outlive the call.
  // The SDK's look-ups in a program keep theirs there too (sdk/programLookups.ts).
  "provider/resources/framework/sessionRegistry.ts dynamicSessions":
    "the dynamic door's and the program's sessions, keyed by configuration",
  // The engine's exit is the process's: one watcher, however many types are configured.
  "provider/client/exitWithEngine.ts watching": "the process watches its engine once",
  // The dynamic host's request messages and console are the process's: they are attached to the engine once.
  "provider/client/dynamicHostLines.ts attached": "the dynamic host's lines are sent to the engine once",
  // A time zone's formatter is the same for every operation: built once, a memo of a pure function.
  "provider/plan/labCalendar.ts formatters": "a time zone's date formatter, built once",
  // A V8 flag is the process's: set once.
  "provider/client/youngGeneration.ts applied": "the process's V8 flag is set once",
  // The hosts' console.error is the process's: it is wrapped once, whichever door configures first.
  "provider/resources/framework/hostErrorEcho.ts dropping": "the process's console.error is wrapped once",
  // What the SDK knows of a program's own objects, weakly held: gone with them, never shared by operations.
  "sdk/machineOwners.ts machineOwners": "a machine key output's VM",
  "sdk/startAfterHardware.ts plannedByArgs": "a VM's planned start, by its args",
  "sdk/startAfterHardware.ts plannedByVm": "a VM's planned start, by the VM",
  "sdk/uniqueNames.ts claimed": "the names claimed in a VM or a program's stack",
};

/** The directories whose modules are read. */
const SCANNED = ["provider", "sdk", "env"];

/** Collections and classes whose instances change as they are used (lookup tables are declared Readonly*). */
const STATEFUL_CLASSES = "Map|WeakMap|Set|WeakSet|KeyedMutex|RequestPacer|SessionRegistry|Session";
const STATEFUL = new RegExp(`^(?:export\\s+)?const\\s+(\\w+)(\\s*:\\s*[^=]+)?\\s*=\\s*new\\s+(${STATEFUL_CLASSES})\\b`);
const LET = /^(?:export\s+)?(?:let|var)\s+(\w+)/;

function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(path.join(root, dir), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts") && !f.endsWith(".d.ts"))
    .map((f) => path.join(dir, f));
}

/** `file name` of every module-scope `let` and mutable collection (module scope: the line starts at column 0). */
function moduleState(file: string, text: string): string[] {
  return text.split("\n").flatMap((line) => {
    const stateful = STATEFUL.exec(line);
    if (stateful && !/^\s*:\s*Readonly(Set|Map)</.test(stateful[2] ?? "")) return [`${file} ${stateful[1]}`];
    const declared = LET.exec(line);
    return declared ? [`${file} ${declared[1]}`] : [];
  });
}

describe("module state in provider/, sdk/ and env/", () => {
  test("the finder sees module-scope lets and mutable collections, not lookup tables or local variables", () => {
    const text = [
      "let client;",
      "export const locks = new Map<string, number>();",
      "const pollers = new WeakMap();",
      'const IDEMPOTENT: ReadonlySet<string> = new Set(["GET"]);',
      "function f() {",
      "  let local = 1;",
      "  const seen = new Set();",
      "}",
    ].join("\n");
    expect(moduleState("x.ts", text)).toEqual(["x.ts client", "x.ts locks", "x.ts pollers"]);
  });

  test("is only the named list: what operations share is in their session", () => {
    const found = SCANNED.flatMap(sourceFiles).flatMap((file) => moduleState(file, fs.readFileSync(path.join(root, file), "utf8")));
    expect(found.sort()).toEqual(Object.keys(ALLOWED).sort());
  });
});
