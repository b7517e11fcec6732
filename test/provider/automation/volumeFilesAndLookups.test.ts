// The look-ups against the emulator: files of a NAS volume through volume-browser jobs
// (directory, extension filter, pages), a media file by path, the event catalog and the rows
// of a table that has no resource of its own.
import { volumeWith, type TestVolume } from "../../../emulator/services/volume-browser/testVolume";
import { readEventCatalog } from "../../../provider/reconcile/automation/eventCatalog";
import { tableRows } from "../../../provider/reconcile/automation/tableRows";
import { findMediaFile, findVolume, listDirectory, VolumeJobError, type Volume } from "../../../provider/reconcile/automation/volumeFiles";
import { eventChoiceProblems } from "../../../provider/schemas/automationRules";
import { getTableRowsArgsSchema } from "../../../provider/schemas/automationLookups";
import { LOOKUP_FUNCTIONS, runLookup } from "../../../provider/resources/lookupFunctions";
import { type Site, startSite, STARTUP_MS } from "./site";

let site: Site;
let volume: TestVolume;
let nas: Volume;
beforeAll(async () => {
  volume = volumeWith({
    "images/old/": 0,
    "images/ubuntu.iso": 4096,
    "images/debian.ISO": 10,
    "images/disk.qcow2": 20,
    "images/notes.txt": "n",
  });
  site = await startSite({ volumes: { nas: volume.dir } });
  nas = await findVolume(site.api, "nas");
}, STARTUP_MS);
afterAll(async () => {
  await site.close();
  volume.remove();
});

const query = (q: Partial<Parameters<typeof listDirectory>[2]> = {}) => ({
  directory: "images",
  extensions: [],
  limit: 0,
  offset: 0,
  ...q,
});

describe("a NAS volume is found by name", () => {
  test("its key, name and status", () =>
    expect(nas).toEqual({ key: expect.stringMatching(/^[0-9a-f]{40}$/), name: "nas", status: "online" }));
  test("an unknown name says what was looked for", async () => {
    await expect(findVolume(site.api, "tape")).rejects.toThrow("vplatform: no NAS volume named 'tape'");
  });
});

describe("the files of a directory come from a volume-browser job", () => {
  test("entries with name, path, size, date and type; directories first", async () => {
    const entries = await listDirectory(site.api, nas, query());
    expect(entries.map((e) => [e.name, e.path, e.type])).toEqual([
      ["old", "images/old", "directory"],
      ["debian.ISO", "images/debian.ISO", "file"],
      ["disk.qcow2", "images/disk.qcow2", "file"],
      ["notes.txt", "images/notes.txt", "file"],
      ["ubuntu.iso", "images/ubuntu.iso", "file"],
    ]);
    expect(entries.find((e) => e.name === "ubuntu.iso")).toMatchObject({ size: 4096, date: expect.any(Number) });
  });
  test("the extension filter keeps matching files (any case) and the directories", async () => {
    expect((await listDirectory(site.api, nas, query({ extensions: ["iso", ".qcow2"] }))).map((e) => e.name)).toEqual([
      "old",
      "debian.ISO",
      "disk.qcow2",
      "ubuntu.iso",
    ]);
  });
  test("pages of limit and offset", async () => {
    const page = async (offset: number) => (await listDirectory(site.api, nas, query({ limit: 2, offset }))).map((e) => e.name);
    expect([await page(0), await page(2), await page(4)]).toEqual([["old", "debian.ISO"], ["disk.qcow2", "notes.txt"], ["ubuntu.iso"]]);
  });
  test("the root is the empty directory", async () => {
    expect((await listDirectory(site.api, nas, query({ directory: "" }))).map((e) => e.path)).toEqual(["images"]);
  });
  test("a job that ends in error fails with the platform's message", async () => {
    const failure = await listDirectory(site.api, nas, query({ directory: "missing" })).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(VolumeJobError);
    expect((failure as Error).message).toBe(
      "vplatform: the listing of 'missing' on the NAS volume 'nas' failed: no such file or directory: 'missing'",
    );
  });
  test("a stopped NAS service fails the job with the spec's message", async () => {
    const [service] = await site.api.list("vm_services", { fields: "$key" });
    await site.api.update("vm_services", String(service.$key), { status: "stopped" });
    try {
      await expect(listDirectory(site.api, nas, query())).rejects.toThrow(/failed: VM must be in running state to issue a query$/);
    } finally {
      await site.api.update("vm_services", String(service.$key), { status: "running" });
    }
  });
});

describe("a media file is found by its path on the volume", () => {
  test("images/ubuntu.iso: the file with its volume and the key of its media file", async () => {
    expect(await findMediaFile(site.api, "nas", "images/ubuntu.iso")).toEqual({
      file: {
        id: expect.stringMatching(/^\d+$/),
        name: "ubuntu.iso",
        path: "images/ubuntu.iso",
        size: 4096,
        date: expect.any(Number),
        type: "file",
        volume: nas.key,
      },
    });
  });
  test("the media file is the platform's files row of that volume and path, an ISO, found again by a second look", async () => {
    const first = await findMediaFile(site.api, "nas", "images/ubuntu.iso");
    const again = await findMediaFile(site.api, "nas", "images/ubuntu.iso");
    const id = "file" in first ? first.file.id : "";
    expect("file" in again && again.file.id).toBe(id);
    expect(await site.api.get("files", id, "name,type,filesize,volume,volume_path,path")).toMatchObject({
      name: "ubuntu.iso",
      type: "iso",
      filesize: 4096,
      volume: nas.key,
      volume_path: "images/ubuntu.iso",
      path: "/volumes/nas/images/ubuntu.iso",
    });
  });
  test("a file that is no ISO or disk image is refused at path", async () => {
    expect(await findMediaFile(site.api, "nas", "images/notes.txt")).toEqual({
      problems: [{ path: ["path"], message: expect.stringContaining("path 'images/notes.txt' on the volume 'nas' is no media file") }],
    });
  });
  test.each([
    ["images/missing.iso", "path 'images/missing.iso' is not on the volume 'nas'"],
    ["nowhere/ubuntu.iso", "path 'nowhere/ubuntu.iso' is not on the volume 'nas'"],
    ["images/old", "path 'images/old' is a directory on the volume 'nas'"],
  ])("%s is refused at path, naming it", async (path, start) => {
    const found = await findMediaFile(site.api, "nas", path);
    expect(found).toEqual({
      problems: [
        { path: ["path"], message: `${start}: give the path of a file on it, relative to the volume's root (e.g. images/ubuntu.iso)` },
      ],
    });
  });
});

describe("the event catalog is the platform's", () => {
  test("vms offers poweroff, alarms is generic, and the rule checks a choice against it", async () => {
    const catalog = await readEventCatalog(site.api);
    expect(catalog.vms).toEqual({ events: expect.arrayContaining(["created", "poweron", "poweroff"]), generic: false });
    expect(catalog.alarms).toEqual({ events: ["raised", "lowered", "resolved"], generic: true });
    expect(catalog.tasks).toBeUndefined(); // the automation tables are no event types
    expect(eventChoiceProblems({ type: "vms", event: "poweroff", object: "1" }, catalog)).toEqual([]);
    expect(eventChoiceProblems({ type: "alarms", event: "raised", object: "1" }, catalog).map((p) => p.path)).toEqual([["object"]]);
  });
});

describe("rows of a table without a resource of its own, read-only", () => {
  test("clusters with chosen fields, sorted and limited", async () => {
    const rows = await tableRows(
      site.api,
      getTableRowsArgsSchema.parse({ table: "clusters", fields: ["$key", "name"], sort: "-name", limit: 5 }),
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(Object.keys(rows[0]).sort()).toEqual(["$key", "name"]);
    const names = rows.map((r) => String(r.name));
    expect(names).toEqual([...names].sort().reverse());
  });
  test("a filter narrows the rows", async () => {
    const [first] = await tableRows(site.api, getTableRowsArgsSchema.parse({ table: "files", fields: ["name"], limit: 1 }));
    const filtered = await tableRows(
      site.api,
      getTableRowsArgsSchema.parse({ table: "files", fields: ["name"], filter: `name eq '${String(first.name)}'` }),
    );
    expect(filtered).toEqual([{ name: first.name }]);
  });
  test("an action table is refused by the arguments' schema", () => {
    expect(getTableRowsArgsSchema.safeParse({ table: "cluster_actions" }).error?.issues[0].message).toBe(
      "is an action table, which is only posted to: read the table it acts on",
    );
  });
});

describe("the declared look-ups answer through a session, as both doors run them", () => {
  const run = (name: string, args: object) => runLookup(LOOKUP_FUNCTIONS.find((f) => f.name === name)!, site.api, args);

  test("getUser: the administrator with its role", async () => {
    const [admin] = await site.api.list("users", { fields: "name", filter: "role eq 'admin'", limit: 1 });
    expect(await run("getUser", { name: admin.name })).toMatchObject({ name: admin.name, role: "admin", enabled: true });
  });
  test("getNasVolume: key, name and status", async () => {
    expect(await run("getNasVolume", { name: "nas" })).toEqual({ id: nas.key, name: "nas", status: "online" });
  });
  test("getVolumeFiles: a page of entries; a missing directory fails with the platform's message", async () => {
    expect(await run("getVolumeFiles", { volume: "nas", directory: "images", extensions: ["iso"], limit: 2, offset: 1 })).toEqual({
      volume: nas.key,
      entries: [
        { name: "debian.ISO", path: "images/debian.ISO", size: 10, date: expect.any(Number), type: "file" },
        { name: "ubuntu.iso", path: "images/ubuntu.iso", size: 4096, date: expect.any(Number), type: "file" },
      ],
    });
    await expect(run("getVolumeFiles", { volume: "nas", directory: "gone" })).rejects.toThrow(
      "vplatform: getVolumeFiles: the listing of 'gone' on the NAS volume 'nas' failed: no such file or directory: 'gone'",
    );
  });
  test("getMediaFileByPath: a missing path fails naming it", async () => {
    await expect(run("getMediaFileByPath", { volume: "nas", path: "images/missing.iso" })).rejects.toThrow(
      "vplatform: getMediaFileByPath: path: path 'images/missing.iso' is not on the volume 'nas'",
    );
  });
  test("getEventTypes: one type, or an unknown one named with the types there are", async () => {
    expect(await run("getEventTypes", { type: "alarms" })).toEqual({
      types: [{ type: "alarms", events: ["raised", "lowered", "resolved"], generic: true }],
    });
    await expect(run("getEventTypes", { type: "weather" })).rejects.toThrow(
      /getEventTypes: type: the platform has no event type 'weather': give one of .*vms/,
    );
  });
  test("getTableRows: rows of clusters with the chosen fields", async () => {
    const { rows } = await run("getTableRows", { table: "clusters", fields: ["name"], limit: 1 });
    expect(rows).toEqual([{ name: expect.any(String) }]);
  });
});
