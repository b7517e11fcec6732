import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { damagedSidecarMessage, damagedTagsMessage, knownEngineError } from "./engine-errors";
import {
  fileBackendDir,
  fileBackendUrl,
  repairCommand,
  repairedMessage,
  repairFileState,
  STRAY_TMP_AGE_MS,
  tagsRepairCommand,
} from "./file-state";
import { pulumiRoot } from "./local-stack";

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), "vplatform-file-state-"));
const put = (dir: string, rel: string, text: string, ageMs = 0) => {
  const file = path.join(dir, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  const t = (Date.now() - ageMs) / 1000;
  fs.utimesSync(file, t, t);
};

describe("the file backend URL the CLI makes writes no sidecar", () => {
  test("a directory becomes file://<dir>?metadata=skip, and back", () => {
    expect(fileBackendUrl("/srv/state")).toBe("file:///srv/state?metadata=skip");
    expect(fileBackendDir("file:///srv/state?metadata=skip")).toBe("/srv/state");
    expect(fileBackendDir("file:///srv/state")).toBe("/srv/state");
    expect(fileBackendDir("postgres://db/state")).toBeUndefined();
    expect(fileBackendDir(undefined)).toBeUndefined();
  });
});

describe("repairFileState removes what a killed run left half-written, and nothing else", () => {
  test("empty or cut-short sidecars and old temporary files go; whole files, fresh writes and state stay", () => {
    const dir = tmp();
    const old = 10 * 60_000;
    put(dir, ".pulumi/stacks/p/dev.json", '{"version":3}', old);
    put(dir, ".pulumi/stacks/p/dev.json.attrs", "", old);
    put(dir, ".pulumi/stacks/p/qa.json.attrs", '{"user.content_type":"app', old);
    put(dir, ".pulumi/stacks/p/ok.json.attrs", '{"user.content_type":"application/json"}\n', old);
    put(dir, ".pulumi/stacks/p/dev.json.18a7f3c2b1d0e9f8.tmp", '{"vers', old);
    put(dir, ".pulumi/stacks/p/dev.json.18a7f3c2b1d0e9f9.tmp", '{"vers', STRAY_TMP_AGE_MS / 2); // a write running now
    put(dir, ".pulumi/stacks/p/new.json.attrs", "", 0); // a stock pulumi writing its sidecar now
    expect(repairFileState(dir).sort()).toEqual([
      ".pulumi/stacks/p/dev.json.18a7f3c2b1d0e9f8.tmp",
      ".pulumi/stacks/p/dev.json.attrs",
      ".pulumi/stacks/p/qa.json.attrs",
    ]);
    expect(fs.readdirSync(path.join(dir, ".pulumi/stacks/p")).sort()).toEqual([
      "dev.json",
      "dev.json.18a7f3c2b1d0e9f9.tmp",
      "new.json.attrs",
      "ok.json.attrs",
    ]);
    expect(repairFileState(tmp())).toEqual([]); // no state yet
  });

  test("a stack's tags file that is empty or cut short goes at any age; one that reads, of any version, stays", () => {
    const dir = tmp();
    put(dir, ".pulumi/stacks/p/dev.pulumi-tags", "", 0);
    put(dir, ".pulumi/stacks/p/qa.pulumi-tags", '{\n    "version": 1,\n    "tags": {\n        "vplatform:wait-', 0);
    put(dir, ".pulumi/stacks/p/ok.pulumi-tags", '{"version":1,"tags":{"vplatform:wait-durations":"{}"}}', 0);
    put(dir, ".pulumi/stacks/p/next.pulumi-tags", '{"version":2,"tags":{}}', 0); // a newer engine's: not ours to judge
    const removed = repairFileState(dir).sort();
    expect(removed).toEqual([".pulumi/stacks/p/dev.pulumi-tags", ".pulumi/stacks/p/qa.pulumi-tags"]);
    expect(fs.readdirSync(path.join(dir, ".pulumi/stacks/p")).sort()).toEqual(["next.pulumi-tags", "ok.pulumi-tags"]);
    expect(repairedMessage(dir, removed)).toMatch(/stack tags are lost/);
  });
});

describe("a damaged sidecar or stack tags file under the real engine", () => {
  const engine = path.join(pulumiRoot(), "bin", "pulumi");
  const pulumi = (dir: string, url: string, ...args: string[]) =>
    execFileSync(engine, args, {
      cwd: path.join(dir, "p"),
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, PULUMI_BACKEND_URL: url, PULUMI_CONFIG_PASSPHRASE: "x", PULUMI_SKIP_UPDATE_CHECK: "true" },
    });
  const failure = (f: () => unknown) => {
    try {
      f();
      return "";
    } catch (e) {
      return String((e as { stderr?: string }).stderr);
    }
  };

  test("metadata=skip writes no .attrs; an emptied one fails every command as the issue saw, the CLI's repair (and the printed command) mend it", () => {
    const dir = tmp();
    fs.mkdirSync(path.join(dir, "p"));
    fs.mkdirSync(path.join(dir, "state"));
    fs.writeFileSync(path.join(dir, "p", "Pulumi.yaml"), "name: p\nruntime: yaml\noutputs:\n  a: 1\n");
    const skip = fileBackendUrl(path.join(dir, "state"));
    pulumi(dir, skip, "stack", "init", "dev");
    pulumi(dir, skip, "up", "--yes", "--stack", "dev");
    pulumi(dir, skip, "up", "--yes", "--stack", "dev");
    const files = (d: string): string[] =>
      fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(d, e.name)) : [e.name]));
    expect(files(path.join(dir, "state")).filter((f) => f.endsWith(".attrs"))).toEqual([]);

    // The stock URL (sidecars) with the sidecar emptied, as a kill inside its write leaves it.
    const stock = `file://${path.join(dir, "state")}`;
    pulumi(dir, stock, "up", "--yes", "--stack", "dev");
    const sidecar = path.join(dir, "state", ".pulumi", "stacks", "p", "dev.json.attrs");
    fs.writeFileSync(sidecar, "");
    fs.utimesSync(sidecar, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    const broken = failure(() => pulumi(dir, stock, "stack", "export", "--stack", "dev"));
    expect(broken).toMatch(/failed to load checkpoint: EOF/);
    expect(knownEngineError(new Error(broken))).toBe(damagedSidecarMessage());
    expect(failure(() => pulumi(dir, skip, "stack", "export", "--stack", "dev"))).toMatch(/EOF/); // skip reads sidecars still

    expect(repairFileState(path.join(dir, "state"))).toContain(".pulumi/stacks/p/dev.json.attrs");
    expect(JSON.parse(pulumi(dir, skip, "stack", "export", "--stack", "dev")).deployment.resources.length).toBeGreaterThan(0);

    // The command the message prints, for stock pulumi.
    fs.writeFileSync(sidecar, "");
    execFileSync("bash", ["-c", repairCommand(path.join(dir, "state"))]);
    expect(JSON.parse(pulumi(dir, stock, "stack", "export", "--stack", "dev")).deployment.resources.length).toBeGreaterThan(0);
    fs.rmSync(dir, { recursive: true, force: true });
  }, 180_000);

  test("an emptied or cut-short stack tags file fails preview with `failed to load stack tags`; the CLI's repair (and the printed command) mend it", () => {
    const dir = tmp();
    fs.mkdirSync(path.join(dir, "p"));
    fs.writeFileSync(path.join(dir, "p", "Pulumi.yaml"), "name: p\nruntime: yaml\noutputs:\n  a: 1\n");
    fs.mkdirSync(path.join(dir, "state"));
    const url = fileBackendUrl(path.join(dir, "state"));
    pulumi(dir, url, "stack", "init", "dev");
    pulumi(dir, url, "stack", "tag", "set", "vplatform:wait-durations", '{"restore":70000}', "--stack", "dev");
    const tags = path.join(dir, "state", ".pulumi", "stacks", "p", "dev.pulumi-tags");
    const whole = fs.readFileSync(tags, "utf8");
    expect(JSON.parse(whole).tags["vplatform:wait-durations"]).toBe('{"restore":70000}');

    for (const damaged of ["", whole.slice(0, whole.length / 2)]) {
      fs.writeFileSync(tags, damaged);
      const broken = failure(() => pulumi(dir, url, "preview", "--stack", "dev"));
      expect(broken).toMatch(/failed to load stack tags/);
      expect(knownEngineError(new Error(broken), path.join(dir, "state"))).toBe(damagedTagsMessage(path.join(dir, "state")));
      expect(repairFileState(path.join(dir, "state"))).toEqual([".pulumi/stacks/p/dev.pulumi-tags"]);
      pulumi(dir, url, "preview", "--stack", "dev"); // reads again: no tags
    }

    // The command the message names, for stock pulumi.
    fs.writeFileSync(tags, "");
    execFileSync("bash", ["-c", tagsRepairCommand(path.join(dir, "state"), "p", "dev")]);
    pulumi(dir, url, "preview", "--stack", "dev");
    fs.rmSync(dir, { recursive: true, force: true });
  }, 180_000);
});
