import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { EmulatorContext } from "../../engine/context";
import { admin, contextWith, del, eventually, get, operator, post, put, refusal, viewer } from "../../requests/testSupport";
import { volumeBrowserFeature } from "./index";
import { volumeKey } from "./tables";

let base: string;
let volumeDir: string;
let outsideDir: string;
let ctx: EmulatorContext;
const VOLUME = volumeKey("isos");

/** A fresh tree per test: the volume `isos` and a sibling directory outside it. */
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), "vb-"));
  volumeDir = join(base, "volume");
  outsideDir = join(base, "outside");
  mkdirSync(join(volumeDir, "images", "old"), { recursive: true });
  mkdirSync(join(volumeDir, "empty"));
  mkdirSync(outsideDir);
  writeFileSync(join(volumeDir, "Debian.iso"), "x".repeat(300));
  writeFileSync(join(volumeDir, "alpine.ISO"), "x".repeat(100));
  writeFileSync(join(volumeDir, "disk.qcow2"), "x".repeat(200));
  writeFileSync(join(volumeDir, "notes.txt"), "x".repeat(50));
  writeFileSync(join(volumeDir, "images", "a.raw"), "raw");
  writeFileSync(join(outsideDir, "secret.txt"), "secret");
  utimesSync(join(volumeDir, "Debian.iso"), 1_700_000_300, 1_700_000_300);
  utimesSync(join(volumeDir, "alpine.ISO"), 1_700_000_100, 1_700_000_100);
  utimesSync(join(volumeDir, "disk.qcow2"), 1_700_000_200, 1_700_000_200);
  utimesSync(join(volumeDir, "notes.txt"), 1_700_000_400, 1_700_000_400);
  ctx = contextWith([volumeBrowserFeature({ isos: volumeDir, other: join(base, "missing-dir") })]);
});

afterEach(() => {
  ctx.close();
  rmSync(base, { recursive: true, force: true });
});

function getDirParams(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { dir: "", limit: 100, offset: null, filter: { extensions: "" }, volume: VOLUME, sort: "", ...overrides };
}

function startJob(query: string, params: Record<string, unknown>, caller = admin, volume = VOLUME): string {
  return String(post(ctx, "volume_browser", { volume, query, params }, caller).$key);
}

/** Runs a job to its end and answers `{status, result}` as a client polling with fields=id,status,result. */
async function runJob(query: string, params: Record<string, unknown>, caller = admin): Promise<{ status: string; result: unknown }> {
  const key = startJob(query, params, caller);
  const done = await eventually(() => {
    const job = get(ctx, "volume_browser", key, "id,status,result");
    return job.status === "running" ? undefined : job;
  });
  return { status: String(done.status), result: done.result };
}

async function listNames(params: Record<string, unknown> = {}): Promise<string[]> {
  const { status, result } = await runJob("get-dir", getDirParams(params));
  expect(status).toBe("complete");
  return (result as { name: string }[]).map((e) => e.name);
}

describe("volumes table", () => {
  it("has one row per configured volume keyed by the SHA1 of its name, online, served by the running NAS service", () => {
    const volume = get(ctx, "volumes", VOLUME, "$key,name,status,service,service#status as service_status");
    expect(volume).toEqual({ $key: VOLUME, name: "isos", status: "online", service: expect.anything(), service_status: "running" });
    expect(VOLUME).toMatch(/^[0-9a-f]{40}$/);
    expect(
      ctx
        .all("volumes")
        .map((v) => v.name)
        .sort(),
    ).toEqual(["isos", "other"]);
  });
});

describe("job lifecycle", () => {
  it("answers the job key on POST, is running at first and complete after processing", async () => {
    const answer = post(ctx, "volume_browser", { volume: VOLUME, query: "get-dir", params: getDirParams() });
    const key = String(answer.$key);
    expect(answer).toMatchObject({ location: `/v4/volume_browser/${key}`, dbpath: `volume_browser/${key}` });
    expect(get(ctx, "volume_browser", key, "status").status).toBe("running");
    await eventually(() => (get(ctx, "volume_browser", key, "status").status === "complete" ? true : undefined));
  });

  it("returns only id, query, status and command without fields, and result only when requested", async () => {
    const key = startJob("get-dir", getDirParams());
    await eventually(() => (get(ctx, "volume_browser", key, "status").status !== "running" ? true : undefined));
    const plain = get(ctx, "volume_browser", key);
    expect(Object.keys(plain).sort()).toEqual(["$key", "command", "id", "query", "status"]);
    expect(plain.id).toBe(key);
    expect(get(ctx, "volume_browser", key, "most")).not.toHaveProperty("result");
    expect(Array.isArray(get(ctx, "volume_browser", key, "id,status,result").result)).toBe(true);
  });

  it("answers 404 for an unknown volume key", () => {
    expect(refusal(() => startJob("get-dir", getDirParams({ volume: "f".repeat(40) }), admin, "f".repeat(40))).status).toBe(404);
  });
});

describe("get-dir entries", () => {
  it("lists the root ('' not '/') with name, lowercase n_name, size, date and type", async () => {
    const { result } = await runJob("get-dir", getDirParams());
    const entries = result as Record<string, unknown>[];
    expect(entries.find((e) => e.name === "alpine.ISO")).toEqual({
      name: "alpine.ISO",
      n_name: "alpine.iso",
      size: 100,
      date: 1_700_000_100,
      type: "file",
    });
    expect(entries.find((e) => e.name === "images")).toMatchObject({ type: "directory", size: 0 });
  });

  it("lists a subdirectory given as a relative path", async () => {
    expect(await listNames({ dir: "images" })).toEqual(["old", "a.raw"]);
    expect(await listNames({ dir: "images/old/" })).toEqual([]);
  });

  it("answers an empty array for an empty directory", async () => {
    expect(await runJob("get-dir", getDirParams({ dir: "empty" }))).toEqual({ status: "complete", result: [] });
  });

  it("fails the job for a missing directory or a file given as dir", async () => {
    expect(await runJob("get-dir", getDirParams({ dir: "nope" }))).toEqual({
      status: "error",
      result: "no such file or directory: 'nope'",
    });
    expect(await runJob("get-dir", getDirParams({ dir: "notes.txt" }))).toEqual({
      status: "error",
      result: "not a directory: 'notes.txt'",
    });
  });
});

describe("get-dir paging", () => {
  it("pages with limit and offset; offset null is the first page and limit 0 is unlimited", async () => {
    const all = await listNames({ limit: 0 });
    expect(all).toHaveLength(6);
    expect(await listNames({ limit: 2, offset: null })).toEqual(all.slice(0, 2));
    expect(await listNames({ limit: 2, offset: 2 })).toEqual(all.slice(2, 4));
    expect(await listNames({ limit: 2, offset: 6 })).toEqual([]);
  });
});

describe("get-dir sorting", () => {
  it("defaults to directories first, then names ignoring case", async () => {
    expect(await listNames()).toEqual(["empty", "images", "alpine.ISO", "Debian.iso", "disk.qcow2", "notes.txt"]);
  });

  it("sorts by name descending with -name (directories still first)", async () => {
    expect(await listNames({ sort: "-name" })).toEqual(["images", "empty", "notes.txt", "disk.qcow2", "Debian.iso", "alpine.ISO"]);
  });

  it("sorts files by size and by date, ascending with + or no sign, descending with -", async () => {
    const files = (names: string[]) => names.filter((n) => n.includes("."));
    expect(files(await listNames({ sort: "size" }))).toEqual(["notes.txt", "alpine.ISO", "disk.qcow2", "Debian.iso"]);
    expect(files(await listNames({ sort: "-size" }))).toEqual(["Debian.iso", "disk.qcow2", "alpine.ISO", "notes.txt"]);
    expect(files(await listNames({ sort: "+date" }))).toEqual(["alpine.ISO", "disk.qcow2", "Debian.iso", "notes.txt"]);
  });
});

describe("get-dir extension filter", () => {
  it("keeps directories and files with a listed extension, ignoring case, dots and spaces", async () => {
    expect(await listNames({ filter: { extensions: "iso,qcow2" } })).toEqual(["empty", "images", "alpine.ISO", "Debian.iso", "disk.qcow2"]);
    expect(await listNames({ filter: { extensions: " .QCOW2 " } })).toEqual(["empty", "images", "disk.qcow2"]);
  });

  it("shows every entry for an empty filter", async () => {
    expect(await listNames({ filter: { extensions: "" } })).toHaveLength(6);
  });
});

describe("the image files a listing shows are media files (files rows of their volume and path)", () => {
  const volumeFiles = () =>
    ctx
      .find("files", (f) => f.volume === VOLUME)
      .map((f) => [f.name, f.type, f.filesize, f.volume_path, get(ctx, "files", String(f.$key), "path").path]);

  it("each ISO and disk image listed, once however often it is listed; other files and directories are none", async () => {
    await listNames();
    await listNames();
    await listNames({ dir: "images" });
    expect(volumeFiles()).toEqual([
      ["alpine.ISO", "iso", 100, "alpine.ISO", "/volumes/isos/alpine.ISO"],
      ["Debian.iso", "iso", 300, "Debian.iso", "/volumes/isos/Debian.iso"],
      ["disk.qcow2", "qcow2", 200, "disk.qcow2", "/volumes/isos/disk.qcow2"],
      ["a.raw", "raw", 3, "images/a.raw", "/volumes/isos/images/a.raw"],
    ]);
  });

  it("a file rewritten on the volume shows its new size at the next listing", async () => {
    await listNames();
    writeFileSync(join(volumeDir, "Debian.iso"), "x".repeat(900));
    await listNames();
    expect(volumeFiles().find(([name]) => name === "Debian.iso")?.[2]).toBe(900);
  });

  it("a volume's file may share its name with the media store's, which stay unique among themselves", async () => {
    post(ctx, "files", { name: "Debian.iso", type: "iso" }, admin);
    await listNames();
    expect(ctx.find("files", (f) => f.name === "Debian.iso")).toHaveLength(2);
    expect(refusal(() => post(ctx, "files", { name: "Debian.iso", type: "iso" }, admin)).status).toBe(409);
  });
});

describe("params validation", () => {
  const jobsBefore = () => ctx.all("volume_browser").length;

  it.each(["dir", "limit", "offset", "filter", "volume", "sort"])("refuses get-dir without params.%s (400, no job)", (field) => {
    const params = getDirParams();
    delete params[field];
    const error = refusal(() => startJob("get-dir", params));
    expect(error.status).toBe(400);
    expect(error.message).toBe(`Validation error on field: 'params.${field}' - 'is required'`);
    expect(jobsBefore()).toBe(0);
  });

  it.each([
    ["volume", { volume: volumeKey("other") }, "must equal the top-level volume"],
    ["sort", { sort: "owner" }, "must be '' or name, size or date with an optional + or -"],
    ["limit", { limit: -1 }, "must be a non-negative integer"],
    ["offset", { offset: 1.5 }, "must be a non-negative integer"],
    ["filter", { filter: "iso" }, "must be an object with 'extensions'"],
    ["filter", { filter: {} }, 'must be {"extensions": "<comma list or empty>"}'],
    ["dir", { dir: null }, "must be a string"],
    ["path", { path: "x" }, "unknown parameter of get-dir"],
  ])("refuses a bad params.%s", (field, override, reason) => {
    const error = refusal(() => startJob("get-dir", getDirParams(override)));
    expect([error.status, error.message]).toEqual([400, `Validation error on field: 'params.${field}' - '${reason}'`]);
  });

  it("refuses params sent as a JSON-encoded string and unknown queries", () => {
    expect(
      refusal(() => post(ctx, "volume_browser", { volume: VOLUME, query: "get-dir", params: JSON.stringify(getDirParams()) })).status,
    ).toBe(400);
    expect(refusal(() => startJob("list", getDirParams())).status).toBe(400);
  });

  it("refuses rename, delete and paste params of the wrong shape", () => {
    expect(refusal(() => startJob("rename", { path: "notes.txt" })).message).toContain("'params.name' - 'is required'");
    expect(refusal(() => startJob("delete", { paths: [] })).message).toContain("must be a non-empty array of paths");
    expect(refusal(() => startJob("paste", { action: "link", sources: ["a"], destination: "" })).message).toContain("must be copy or move");
  });
});

describe("sandbox: no path leaves the volume", () => {
  beforeEach(() => {
    symlinkSync(outsideDir, join(volumeDir, "escape-dir"));
    symlinkSync(join(outsideDir, "secret.txt"), join(volumeDir, "escape-file"));
    symlinkSync("images", join(volumeDir, "inside-link"));
  });

  it.each([
    ["..", "invalid path '..': path escapes the volume"],
    ["images/../..", "invalid path 'images/../..': path escapes the volume"],
    ["..\\outside", "invalid path '..\\outside': path escapes the volume"],
    ["/", "invalid path '/': absolute paths are not allowed (use '' for the root)"],
    ["/etc", "invalid path '/etc': absolute paths are not allowed (use '' for the root)"],
    ["C:\\Windows", "invalid path 'C:\\Windows': absolute paths are not allowed (use '' for the root)"],
    ["images\0", "invalid path: NUL byte"],
    ["escape-dir", "invalid path 'escape-dir': path escapes the volume"],
    ["escape-dir/", "invalid path 'escape-dir/': path escapes the volume"],
  ])("get-dir %j fails the job", async (dir, message) => {
    expect(await runJob("get-dir", getDirParams({ dir }))).toEqual({ status: "error", result: message });
  });

  it("hides links leading outside from listings but follows links inside", async () => {
    const names = await listNames();
    expect(names).not.toContain("escape-dir");
    expect(names).not.toContain("escape-file");
    expect(names).toContain("inside-link");
    expect(await listNames({ dir: "inside-link" })).toEqual(["old", "a.raw"]);
  });

  it("refuses to rename, delete or paste through an escape and leaves the outside untouched", async () => {
    const escapes: [string, Record<string, unknown>][] = [
      ["rename", { path: "../outside/secret.txt", name: "x" }],
      ["rename", { path: "escape-dir/secret.txt", name: "x" }],
      ["rename", { path: "escape-file", name: "x" }],
      ["rename", { path: "notes.txt", name: "../notes.txt" }],
      ["rename", { path: "notes.txt", name: "a/b" }],
      ["delete", { paths: ["escape-dir"] }],
      ["delete", { paths: ["../outside"] }],
      ["delete", { paths: [`${outsideDir}/secret.txt`] }],
      ["paste", { action: "copy", sources: ["escape-file"], destination: "" }],
      ["paste", { action: "move", sources: ["notes.txt"], destination: "escape-dir" }],
      ["paste", { action: "copy", sources: ["notes.txt"], destination: ".." }],
    ];
    for (const [query, params] of escapes) {
      expect({ query, params, ...(await runJob(query, params)) }).toMatchObject({ status: "error" });
    }
    expect(readFileSync(join(outsideDir, "secret.txt"), "utf8")).toBe("secret");
    expect(existsSync(join(outsideDir, "notes.txt"))).toBe(false);
    expect(existsSync(join(volumeDir, "notes.txt"))).toBe(true);
  });

  it("deletes a link itself, never its target", async () => {
    expect((await runJob("delete", { paths: ["inside-link"] })).status).toBe("complete");
    expect(existsSync(join(volumeDir, "inside-link"))).toBe(false);
    expect(existsSync(join(volumeDir, "images", "a.raw"))).toBe(true);
  });
});

describe("rename", () => {
  it("renames an entry within its directory and answers the renamed entry", async () => {
    const { status, result } = await runJob("rename", { path: "images/a.raw", name: "b.raw" });
    expect(status).toBe("complete");
    expect(result).toEqual([expect.objectContaining({ name: "b.raw", type: "file", size: 3 })]);
    expect(await listNames({ dir: "images" })).toEqual(["old", "b.raw"]);
  });

  it("fails when the new name exists, the entry is missing or the target is the root", async () => {
    expect((await runJob("rename", { path: "notes.txt", name: "disk.qcow2" })).result).toBe("destination exists: 'disk.qcow2'");
    expect((await runJob("rename", { path: "gone.txt", name: "x" })).result).toBe("no such file or directory: 'gone.txt'");
    expect((await runJob("rename", { path: "", name: "x" })).result).toBe("the volume root cannot be the target of this query");
  });
});

describe("delete", () => {
  it("removes files and whole directories and answers []", async () => {
    expect(await runJob("delete", { paths: ["notes.txt", "images"] })).toEqual({ status: "complete", result: [] });
    expect(await listNames()).toEqual(["empty", "alpine.ISO", "Debian.iso", "disk.qcow2"]);
  });

  it("removes nothing when one of the paths is missing", async () => {
    expect((await runJob("delete", { paths: ["notes.txt", "gone"] })).status).toBe("error");
    expect(existsSync(join(volumeDir, "notes.txt"))).toBe(true);
  });
});

describe("paste", () => {
  it("copies files and directories into a destination and answers the pasted entries", async () => {
    const { status, result } = await runJob("paste", { action: "copy", sources: ["notes.txt", "images"], destination: "empty" });
    expect(status).toBe("complete");
    expect((result as { name: string }[]).map((e) => e.name).sort()).toEqual(["images", "notes.txt"]);
    expect(readFileSync(join(volumeDir, "empty", "images", "a.raw"), "utf8")).toBe("raw");
    expect(existsSync(join(volumeDir, "notes.txt"))).toBe(true);
  });

  it("moves entries", async () => {
    expect((await runJob("paste", { action: "move", sources: ["disk.qcow2"], destination: "images/old" })).status).toBe("complete");
    expect(existsSync(join(volumeDir, "disk.qcow2"))).toBe(false);
    expect(await listNames({ dir: "images/old" })).toEqual(["disk.qcow2"]);
  });

  it("refuses to overwrite or to paste a directory into itself, changing nothing", async () => {
    writeFileSync(join(volumeDir, "empty", "notes.txt"), "old");
    expect((await runJob("paste", { action: "copy", sources: ["disk.qcow2", "notes.txt"], destination: "empty" })).result).toBe(
      "destination exists: 'notes.txt'",
    );
    expect(existsSync(join(volumeDir, "empty", "disk.qcow2"))).toBe(false);
    expect((await runJob("paste", { action: "move", sources: ["images"], destination: "images/old" })).result).toBe(
      "cannot paste 'images' into itself",
    );
  });
});

describe("service and volume state", () => {
  const volume = () => ctx.get("volumes", VOLUME)!;

  it("fails jobs while the NAS service VM is stopped", async () => {
    put(ctx, "vm_services", volume().service, { status: "stopped" });
    expect(await runJob("get-dir", getDirParams())).toEqual({ status: "error", result: "VM must be in running state to issue a query" });
  });

  it("fails jobs when the NAS service is gone", async () => {
    del(ctx, "vm_services", volume().service);
    expect(await runJob("get-dir", getDirParams())).toEqual({
      status: "error",
      result: "error getting volumes VM service: no such file or directory",
    });
  });

  it("fails jobs while the volume is offline", async () => {
    put(ctx, "volumes", VOLUME, { status: "offline" });
    expect(await runJob("get-dir", getDirParams())).toEqual({ status: "error", result: "volume is offline" });
  });

  it("fails jobs when the backing directory is missing", async () => {
    const other = volumeKey("other");
    const key = String(post(ctx, "volume_browser", { volume: other, query: "get-dir", params: getDirParams({ volume: other }) }).$key);
    const job = await eventually(() => (ctx.get("volume_browser", key)!.status !== "running" ? ctx.get("volume_browser", key) : undefined));
    expect([job.status, job.result]).toEqual(["error", "volume is not mounted: its directory is missing"]);
  });
});

describe("permissions", () => {
  it("lets a read-only user browse but not change the volume", async () => {
    expect((await runJob("get-dir", getDirParams(), viewer)).status).toBe("complete");
    expect(refusal(() => startJob("delete", { paths: ["notes.txt"] }, viewer)).status).toBe(403);
    expect((await runJob("delete", { paths: ["notes.txt"] }, operator)).status).toBe("complete");
  });
});
