// A drive boots from a file found on the NAS, and tables with no resource of their own are read, under the real
// engine: an emulator whose volume `nas` holds images/ubuntu.iso; a TypeScript program (the SDK's functions) and
// its Pulumi YAML twin (the plugin's functions, `fn::invoke`) find the file by path, give its media file to a
// cdrom drive as mediaSource, and read the clusters and the self-signed certificate with the generic look-up.
// A missing path fails at preview, naming the path, before any change.
import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { volumeWith, type TestVolume } from "../../emulator/services/volume-browser/testVolume";
import { findRepoRoot } from "../../env/local-stack";
import { collect, startE2e, type E2eContext, e2eWorkDir } from "./harness";

const ISO_SIZE = 8192;

// A project run by the language host (not an inline program): a look-up's error stays in the program's process.
const TS_PROGRAM = `
const pulumi = require("@pulumi/pulumi");
const vp = require("vplatform");
module.exports = async () => {
  const isoPath = new pulumi.Config().get("isoPath") ?? "images/ubuntu.iso";
  const iso = await vp.getMediaFileByPath({ volume: "nas", path: isoPath });
  const clusters = await vp.getTableRows({ table: "clusters", fields: ["$key", "name"], sort: "name" });
  const certificates = await vp.getTableRows({
    table: "certificates",
    fields: ["domain", "type", "valid"],
    filter: "type eq 'self_signed'",
  });
  const vm = new vp.VirtualMachine("installer", { name: "nas-ts", ram: 1024, powerState: "stopped" });
  new vp.Drive("installer-cd", { machine: vm.machineKey, name: "cd", media: "cdrom", mediaSource: iso.id });
  return { mediaId: iso.id, mediaPath: iso.path, clusters: clusters.rows, certificates: certificates.rows, machineKey: vm.machineKey };
};
`;

const YAML_PROGRAM = `name: nas-media-yaml
runtime: yaml
config:
  isoPath:
    type: string
    default: images/ubuntu.iso
variables:
  iso:
    fn::invoke:
      function: vplatform:index:getMediaFileByPath
      arguments:
        volume: nas
        path: \${isoPath}
  clusters:
    fn::invoke:
      function: vplatform:index:getTableRows
      arguments:
        table: clusters
        fields: ["$key", name]
        sort: name
      return: rows
  certificates:
    fn::invoke:
      function: vplatform:index:getTableRows
      arguments:
        table: certificates
        fields: [domain, type, valid]
        filter: type eq 'self_signed'
      return: rows
resources:
  installer:
    type: vplatform:index:VirtualMachine
    properties:
      name: nas-yaml
      ram: 1024
      powerState: stopped
  installerCd:
    type: vplatform:index:Drive
    properties:
      machine: \${installer.machineKey}
      name: cd
      media: cdrom
      mediaSource: \${iso.id}
outputs:
  mediaId: \${iso.id}
  mediaPath: \${iso.path}
  clusters: \${clusters}
  certificates: \${certificates}
  machineKey: \${installer.machineKey}
`;

let volume: TestVolume;
let emulator: RunningEmulator;
let ts: E2eContext;
let yaml: E2eContext;
const projects: string[] = [];

/** A Pulumi project in a fresh directory inside the repository (where `vplatform` resolves). */
function project(name: string, files: Record<string, string>): string {
  const dir = e2eWorkDir(`${name}-project-`);
  for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, file), text);
  projects.push(dir);
  return dir;
}

beforeAll(async () => {
  volume = volumeWith({ "images/ubuntu.iso": ISO_SIZE, "images/readme.txt": "not an image" });
  emulator = await startEmulator({ port: 0, timeScale: 0.01, quiet: true, volumes: { nas: volume.dir } });
  fs.mkdirSync(path.join(findRepoRoot(), ".e2e-work"), { recursive: true });
  const shared = { ...emulator, close: async () => undefined };
  const tsDir = project("nas-media-ts", { "Pulumi.yaml": "name: nas-media-ts\nruntime: nodejs\nmain: index.js\n", "index.js": TS_PROGRAM });
  ts = await startE2e("nas-media-ts", { projectDir: tsDir }, shared);
  yaml = await startE2e("nas-media-yaml", { projectDir: project("nas-media-yaml", { "Pulumi.yaml": YAML_PROGRAM }) }, shared);
}, 120_000);
afterAll(async () => {
  await ts?.dispose();
  await yaml?.dispose();
  await emulator?.close();
  for (const dir of projects) fs.rmSync(dir, { recursive: true, force: true });
  volume?.remove();
});

/** What the platform holds for the drive `cd` of a machine: its media and media source, and that file's row. */
async function cdrom(ctx: E2eContext, machineKey: string) {
  const drives = (await ctx.api("GET", `/v4/machine_drives?filter=machine%20eq%20${machineKey}&fields=name,media,media_source`)).body;
  const file = (await ctx.api("GET", `/v4/files/${drives[0]?.media_source}?fields=name,type,filesize,volume_path,path`)).body;
  return { drives, file };
}

const rowsOf = async (ctx: E2eContext, query: string) => (await ctx.api("GET", `/v4/${query}`)).body;

/** Requests that change something, besides the volume-browser jobs that list a directory (which change nothing). */
async function changingRequests(ctx: E2eContext): Promise<string[]> {
  const { entries } = await ctx.requestCounts();
  return entries.filter((e) => e.method !== "GET" && e.table !== "volume_browser").map((e) => `${e.method} ${e.table}`);
}

const outputs = (up: { outputs: Record<string, { value: unknown }> }) =>
  Object.fromEntries(Object.entries(up.outputs).map(([k, v]) => [k, v.value])) as Record<string, any>;

describe.each([
  ["a TypeScript program (the SDK's functions)", () => ts, "nas-ts"],
  ["its Pulumi YAML twin (the plugin's functions, fn::invoke)", () => yaml, "nas-yaml"],
])("%s", (_door, context, vmName) => {
  test("the look-up finds images/ubuntu.iso and a cdrom drive boots from it: the drive row carries that media file", async () => {
    const ctx = context();
    const up = await ctx.stack.up(collect(ctx));
    expect(up.summary.result).toBe("succeeded");
    const out = outputs(up);
    expect(out.mediaId).toMatch(/^\d+$/);
    expect(out.mediaPath).toBe("images/ubuntu.iso");
    const { drives, file } = await cdrom(ctx, out.machineKey);
    expect(drives).toEqual([expect.objectContaining({ name: "cd", media: "cdrom" })]);
    expect(String(drives[0].media_source)).toBe(out.mediaId);
    expect(file).toMatchObject({ name: "ubuntu.iso", type: "iso", filesize: ISO_SIZE, volume_path: "images/ubuntu.iso" });
    const vms = (await ctx.api("GET", `/v4/vms?filter=name%20eq%20'${vmName}'&fields=name`)).body;
    expect(vms).toEqual([{ name: vmName }]);
  }, 300_000);

  test("the generic look-up answers the rows of clusters and certificates, tables with no resource, as the API holds them", async () => {
    const ctx = context();
    const out = (await ctx.stack.outputs()) as Record<string, { value: unknown }>;
    const clusters = await rowsOf(ctx, "clusters?fields=%24key,name&sort=name");
    expect(clusters.length).toBeGreaterThan(0);
    expect(out.clusters.value).toEqual(clusters);
    const certificates = await rowsOf(ctx, "certificates?fields=domain,type,valid&filter=type%20eq%20'self_signed'");
    expect(certificates).toEqual([{ domain: "vplatform.local", type: "self_signed", valid: true }]);
    expect(out.certificates.value).toEqual(certificates);
  });

  test("a path that is not on the volume fails at preview, naming the path, and nothing is changed", async () => {
    const ctx = context();
    await ctx.stack.setConfig("isoPath", { value: "images/missing.iso" });
    await ctx.resetRequestCounts();
    try {
      const failed = await ctx.stack.preview(collect(ctx)).catch((e: Error) => e);
      expect(failed).toBeInstanceOf(Error);
      expect(String((failed as Error).message)).toMatch(
        /getMediaFileByPath: path: path 'images\/missing\.iso' is not on the volume 'nas': give the path of a file on it/,
      );
      expect(await changingRequests(ctx)).toEqual([]);
    } finally {
      await ctx.stack.removeConfig("isoPath");
    }
  }, 300_000);

  test("a file on the volume that is no image is refused at preview too, naming the path", async () => {
    const ctx = context();
    await ctx.stack.setConfig("isoPath", { value: "images/readme.txt" });
    try {
      const failed = await ctx.stack.preview(collect(ctx)).catch((e: Error) => e);
      expect(String((failed as Error).message)).toMatch(/path 'images\/readme\.txt' on the volume 'nas' is no media file/);
    } finally {
      await ctx.stack.removeConfig("isoPath");
    }
  }, 300_000);

  test("the next preview plans no change, and destroy removes the VM and its drive", async () => {
    const ctx = context();
    const preview = await ctx.stack.preview(collect(ctx));
    expect(Object.keys(preview.changeSummary).filter((k) => k !== "same" && preview.changeSummary[k])).toEqual([]);
    await ctx.stack.destroy(collect(ctx));
    expect((await ctx.api("GET", `/v4/vms?filter=name%20eq%20'${vmName}'&fields=name`)).body).toEqual([]);
  }, 300_000);
});
