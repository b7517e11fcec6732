/**
 * `npm run build` (scripts/build.js) skips when no input changed since the last build that passed, and builds
 * again when one did. The decision is pure (`staleness`); the real script is run on this checkout: twice for the
 * skip, and with `--check` (which writes nothing) for a touched source, so other test files reading dist/ and
 * node_modules/vplatform meanwhile never see them rewritten.
 */
import { execFileSync } from "node:child_process";
import { statSync, utimesSync } from "node:fs";
import { join } from "node:path";

type Stamp = { mtimeMs: number; inputsId: string };
const { staleness, inputsId } = require("./build") as {
  staleness(stamp: Stamp | undefined, inputs: Record<string, number>, outputsPresent: boolean): string | undefined;
  inputsId(names: string[]): string;
};

const ROOT = join(__dirname, "..");
const BUILD = join(__dirname, "build.js");
const run = (...args: string[]) => execFileSync(process.execPath, [BUILD, ...args], { cwd: ROOT, encoding: "utf8" });
const check = (): string => {
  try {
    return run("--check");
  } catch (e) {
    return String((e as { stdout: string }).stdout);
  }
};

describe("a build is due exactly when an input changed since the last one", () => {
  const inputs = { "sdk/index.ts": 1_000, "package.json": 900 };
  const stamp = { mtimeMs: 1_000, inputsId: inputsId(Object.keys(inputs)) };

  test("no input newer than the last build: up to date", () => {
    expect(staleness(stamp, inputs, true)).toBeUndefined();
  });

  test("an input saved after the last build started: due, naming it", () => {
    expect(staleness(stamp, { ...inputs, "package.json": 1_001 }, true)).toBe("package.json changed");
  });

  test("a source added or removed (its mtime says nothing): due", () => {
    expect(staleness(stamp, { ...inputs, "sdk/new.ts": 10 }, true)).toBe("files were added or removed");
    expect(staleness(stamp, { "sdk/index.ts": 1_000 }, true)).toBe("files were added or removed");
  });

  test("no build passed yet, or its copy in node_modules/vplatform is gone: due", () => {
    expect(staleness(undefined, inputs, true)).toBe("no build yet");
    expect(staleness(stamp, inputs, false)).toBe("node_modules/vplatform is missing");
  });
});

describe("npm run build on this checkout", () => {
  const stampMtime = () => statSync(join(ROOT, "dist", ".build-stamp")).mtimeMs;

  test("a second build with no change is skipped: nothing in dist/ is written", () => {
    run(); // builds only if the checkout changed since the last build
    const [stamp, output] = [stampMtime(), statSync(join(ROOT, "dist", "sdk", "index.js")).mtimeMs];
    run();
    expect([stampMtime(), statSync(join(ROOT, "dist", "sdk", "index.js")).mtimeMs]).toEqual([stamp, output]);
    expect(check()).toBe("up to date\n");
  }, 120_000);

  test("touching a source makes the next build run", () => {
    const source = join(ROOT, "emulator", "console", "requestLog.ts");
    const before = statSync(source);
    try {
      utimesSync(source, before.atimeMs / 1000, (stampMtime() + 1_000) / 1000);
      expect(check()).toBe("stale: emulator/console/requestLog.ts changed\n");
    } finally {
      utimesSync(source, before.atimeMs / 1000, before.mtimeMs / 1000);
    }
    expect(check()).toBe("up to date\n");
  });
});
