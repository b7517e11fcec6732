// `npm run build`: the package (tsconfig.json) compiled into dist/, then the package copied into
// node_modules/vplatform (link-self.js). ./dev runs it before every command, so it is skipped when no input
// changed since the last build that passed: the stamp dist/.build-stamp holds the list of inputs and, as its
// mtime, the time that build started. When it must build, tsc is incremental (its .tsbuildinfo file in
// dist/, gone with it): the output is the same.
// Plain JavaScript: it runs before anything is compiled.
const { execFileSync } = require("node:child_process");
const { createHash } = require("node:crypto");
const fs = require("node:fs");
const path = require("node:path");

const ROOT = path.join(__dirname, "..");
const CONFIGS = ["tsconfig.json"];
const STAMP = path.join(ROOT, "dist", ".build-stamp");
/** What the build reads besides the configs' source files. */
const OTHER_INPUTS = [
  "package.json",
  // rewritten by every npm install/ci: new compiler or type packages
  "node_modules/.package-lock.json",
  "scripts/build.js",
  "scripts/link-self.js",
  // copied by link-self.js
  "schema.json",
  "plugin/PulumiPlugin.yaml",
  "plugin/index.js",
];
/** What must be there for a skip: link-self's copy (an npm install removes it). */
const OUTPUTS = [
  "node_modules/vplatform/package.json",
  "node_modules/vplatform/dist/sdk/index.js",
  "node_modules/vplatform/plugin/index.js",
];

/** The configs' source files as tsc sees them (its own include/exclude rules), plus the other inputs. */
function inputFiles(root) {
  const ts = require("typescript");
  const host = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => fail(ts.flattenDiagnosticMessageText(d.messageText, "\n")) };
  const sources = CONFIGS.flatMap((config) => ts.getParsedCommandLineOfConfigFile(path.join(root, config), {}, host).fileNames);
  const configs = fs.readdirSync(root).filter((name) => /^tsconfig.*\.json$/.test(name));
  const others = OTHER_INPUTS.filter((name) => fs.existsSync(path.join(root, name)));
  return [...new Set([...sources.map((f) => path.relative(root, f)), ...configs, ...others])].sort();
}

/**
 * Why the last build is stale, or undefined when it is not: pure, over what was read.
 * `stamp`: the last build's (undefined when none passed); `inputs`: each input's mtime by name.
 */
function staleness(stamp, inputs, outputsPresent) {
  if (!stamp) return "no build yet";
  if (!outputsPresent) return "node_modules/vplatform is missing";
  if (stamp.inputsId !== inputsId(Object.keys(inputs))) return "files were added or removed";
  const newer = Object.entries(inputs).find(([, mtimeMs]) => mtimeMs > stamp.mtimeMs);
  return newer ? `${newer[0]} changed` : undefined;
}

const inputsId = (names) =>
  createHash("sha256")
    .update([...names].sort().join("\n"))
    .digest("hex");

function mtimeOf(file) {
  return fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs;
}

function readStamp() {
  const mtimeMs = mtimeOf(STAMP);
  if (mtimeMs === undefined) return undefined;
  try {
    return { mtimeMs, inputsId: JSON.parse(fs.readFileSync(STAMP, "utf8")).inputsId };
  } catch {
    return undefined;
  }
}

function fail(message) {
  process.stderr.write(`build: ${message}\n`);
  process.exit(1);
}

function build(names, startedAt) {
  const tsc = require.resolve("typescript/bin/tsc");
  fs.rmSync(STAMP, { force: true }); // a build that fails half-way leaves no stamp
  for (const config of CONFIGS) {
    const buildInfo = path.join("dist", `${path.basename(config, ".json")}.tsbuildinfo`);
    try {
      execFileSync(process.execPath, [tsc, "-p", config, "--incremental", "--tsBuildInfoFile", buildInfo], { cwd: ROOT, stdio: "inherit" });
    } catch {
      process.exit(1); // tsc printed why
    }
  }
  execFileSync(process.execPath, [path.join(__dirname, "link-self.js")], { cwd: ROOT, stdio: "inherit" });
  fs.writeFileSync(STAMP, `${JSON.stringify({ inputsId: inputsId(names) })}\n`);
  // Its mtime is when the build started: an input saved while tsc ran is newer, so the next call builds again.
  fs.utimesSync(STAMP, startedAt / 1000, startedAt / 1000);
}

function main(argv) {
  const startedAt = Date.now();
  const names = inputFiles(ROOT);
  const inputs = Object.fromEntries(names.map((name) => [name, mtimeOf(path.join(ROOT, name))]));
  const why = staleness(
    readStamp(),
    inputs,
    OUTPUTS.every((f) => fs.existsSync(path.join(ROOT, f))),
  );
  // --check: only tell (exit 1 when a build is due); `rm -rf dist` forces one.
  if (argv.includes("--check")) {
    process.stdout.write(why ? `stale: ${why}\n` : "up to date\n");
    process.exitCode = why ? 1 : 0;
  } else if (why) build(names, startedAt);
}

if (require.main === module) main(process.argv.slice(2));
module.exports = { staleness, inputsId };
