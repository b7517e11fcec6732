// A look-up's arguments are checked before any request, at both doors (the SDK's function and the
// plugin's invoke), each problem named by its argument and saying what to give instead.
import { VplatformProvider } from "../plugin/vplatformProvider";
import type { PlatformApi } from "../reconcile/platform";
import { Session } from "../reconcile/session";
import { checkLookupArgs, LOOKUP_FUNCTIONS, runLookup } from "./lookupFunctions";

const fn = (name: string) => LOOKUP_FUNCTIONS.find((f) => f.name === name)!;
const failures = (name: string, inputs: unknown) => checkLookupArgs(fn(name), inputs).failures;

/** A platform that records every request and answers none: a checked look-up never reaches it. */
function recordingSession(): { session: Session; requests: string[] } {
  const requests: string[] = [];
  const refuse = (what: string) => async () => {
    requests.push(what);
    throw new Error("no request was expected");
  };
  const api: PlatformApi = {
    list: refuse("list"),
    get: refuse("get"),
    create: refuse("create"),
    action: refuse("action"),
    update: refuse("update"),
    remove: refuse("remove"),
  };
  return { session: new Session(api), requests };
}

describe("bad arguments are refused, naming the argument and what to give", () => {
  test.each([
    ["getVnet", {}, "name", "getVnet: name: is required: Name to look up"],
    ["getUser", { name: "" }, "name", "getUser: name: Too small: expected string to have >=1 characters"],
    ["getVolumeFiles", { directory: "images" }, "volume", "getVolumeFiles: volume: is required: Name of the NAS volume"],
    [
      "getVolumeFiles",
      { volume: "nas", directory: "/images" },
      "directory",
      'getVolumeFiles: directory: is relative to the volume\'s root: write "images", not "/images" ("" is the root)',
    ],
    ["getVolumeFiles", { volume: "nas", directory: "../etc" }, "directory", "stays inside the volume: remove the '..' segments"],
    ["getVolumeFiles", { volume: "nas", extensions: ["*.iso"] }, "extensions.0", 'an extension is letters and digits, e.g. "iso"'],
    ["getVolumeFiles", { volume: "nas", limit: 0 }, "limit", "getVolumeFiles: limit: Too small"],
    ["getVolumeFiles", { volume: "nas", offset: -1 }, "offset", "getVolumeFiles: offset: Too small"],
    ["getMediaFileByPath", { volume: "nas", path: "" }, "path", "names a file: e.g. images/ubuntu.iso"],
    ["getMediaFileByPath", { volume: "nas" }, "path", "getMediaFileByPath: path: is required: Path of the file"],
    ["getTableRows", { table: "cluster_actions" }, "table", "is an action table, which is only posted to: read the table it acts on"],
    ["getTableRows", { table: "Clusters" }, "table", "a table name is lower case letters, digits and _ (e.g. clusters)"],
    ["getTableRows", { table: "clusters", sort: "name desc" }, "sort", 'a field with + or - in front, e.g. "-created"'],
    ["getTableRows", { table: "clusters", limit: 1.5 }, "limit", "getTableRows: limit: Invalid input: expected int"],
    ["getEventTypes", { type: "" }, "type", "getEventTypes: type: Too small"],
  ])("%s(%j) is refused at %s", (name, inputs, property, reason) => {
    expect(failures(name, inputs)).toEqual([{ property, reason: expect.stringContaining(reason) }]);
  });

  test("an unknown argument is named, with the arguments there are", () => {
    expect(failures("getNasVolume", { name: "nas", volume: "nas" })).toEqual([
      { property: "volume", reason: "getNasVolume: volume: no such argument: the arguments are name" },
    ]);
  });

  test("defaults fill what is left out", () => {
    expect(checkLookupArgs(fn("getVolumeFiles"), { volume: "nas" }).args).toEqual({
      volume: "nas",
      directory: "",
      extensions: [],
      limit: 1000,
      offset: 0,
    });
    expect(checkLookupArgs(fn("getTableRows"), { table: "clusters" }).args).toEqual({ table: "clusters", fields: [], limit: 100 });
  });
});

describe("a refused look-up sends nothing", () => {
  test("the SDK's door throws the named problems before any request", async () => {
    const { session, requests } = recordingSession();
    await expect(runLookup(fn("getTableRows"), session, { table: "file_actions" })).rejects.toThrow(
      "vplatform: getTableRows: table: is an action table, which is only posted to: read the table it acts on",
    );
    expect(requests).toEqual([]);
  });

  test("the plugin's invoke answers the problems as check failures, configured or not", async () => {
    const plugin = new VplatformProvider();
    expect(await plugin.invoke("vplatform:index:getVolumeFiles", { volume: "nas", directory: "/" })).toEqual({
      failures: [{ property: "directory", reason: expect.stringContaining("is relative to the volume's root") }],
    });
  });

  test("a run's own error names the function once", async () => {
    const session = new Session({ ...recordingSession().session, list: async () => [] } as unknown as PlatformApi);
    await expect(runLookup(fn("getUser"), session, { name: "ci" })).rejects.toThrow(/^vplatform: getUser: no user named 'ci'$/);
  });
});
