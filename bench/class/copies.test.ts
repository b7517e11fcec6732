import type { RecordedExchange } from "../../emulator/admin/recorder";
import { type PlatformReader, cloneTree, clonesIn, copiesDiffering, madeLine } from "./copies";

/** A clone request as the recorder keeps it: from `vm` at `atMs`, answered with the new VM's key. */
const clone = (vm: string, name: string, made: string, atMs: number): RecordedExchange => ({
  seq: 0,
  at: new Date(atMs).toISOString(),
  method: "POST",
  url: "/api/v4/vm_actions",
  auth: "bearer",
  body: { vm, action: "clone", params: { name } },
  status: 200,
  answer: { response: { vmkey: made, machinekey: `m${made}` } },
  ms: 1,
});

describe("how the clones of a run were made, from the recorder", () => {
  test("a chain: every clone from the source, one at a time", () => {
    const chain = [clone("1", "a", "2", 0), clone("1", "b", "3", 5000), clone("1", "c", "4", 10000)];
    expect(cloneTree(clonesIn(chain), 5000)).toEqual({ clones: 3, fromClones: 0, sourcesAtOnce: 1 });
  });

  test("a tree: the first clone seeds the next round, so two sources clone at once", () => {
    const tree = [clone("1", "a", "2", 0), clone("1", "b", "3", 5000), clone("2", "c", "4", 5001)];
    expect(cloneTree(clonesIn(tree), 5000)).toEqual({ clones: 3, fromClones: 1, sourcesAtOnce: 2 });
  });

  test("other requests are no clones; a clone whose answer was lost made no known VM", () => {
    const other = { ...clone("1", "x", "9", 0), body: { vm: "1", action: "poweron" } };
    const lost = { ...clone("1", "a", "2", 0), answer: undefined };
    expect(clonesIn([other, lost])).toEqual([{ from: "1", name: "a", at: 0 }]);
  });
});

describe("whether the copies of a class are equal, from the platform", () => {
  /** A class of copies c1 and c2 with a VM `web` each; `web`'s RAM per copy, drive content per copy. */
  const platform = (ram: Record<string, number>, content: Record<string, string> = {}): PlatformReader => ({
    async api(apiPath) {
      const path = decodeURIComponent(apiPath);
      const copy = /'(c\d)-web'|machine eq (\d)/.exec(path)!;
      const n = copy[1] ? copy[1].slice(1) : copy[2];
      if (path.startsWith("/v4/vms"))
        return [{ $key: n, machine: n, name: `c${n}-web`, ram: ram[`c${n}`], description: `[vplatform:${n}]` }];
      if (path.startsWith("/v4/machine_drives")) return [{ $key: `d${n}`, machine: n, name: "os", description: `disk [vplatform:x${n}]` }];
      return [{ $key: `n${n}`, machine: n, name: "eth0", vnet: n, ipaddress: `10.0.${n}.5`, macaddress: `aa:${n}` }];
    },
    content: async (driveKey) => ({ content: content[driveKey] ?? "" }),
  });

  test("copies alike but for what makes each VM its own (name, keys, markers, its network, MACs) are equal", async () => {
    expect(await copiesDiffering(platform({ c1: 512, c2: 512 }), ["c1", "c2"], ["web"])).toEqual([]);
  });

  test("a copy whose settings or drive content differ is named", async () => {
    expect(await copiesDiffering(platform({ c1: 512, c2: 1024 }), ["c1", "c2"], ["web"])).toEqual(["c2-web"]);
    expect(await copiesDiffering(platform({ c1: 512, c2: 512 }, { d2: "edited" }), ["c1", "c2"], ["web"])).toEqual(["c2-web"]);
  });

  test("the bench's line says both", () => {
    const tree = { clones: 90, fromClones: 89, sourcesAtOnce: 32 };
    expect(madeLine({ readySeconds: 441.2, tree, differing: [] })).toBe(
      "last VM running 441 s after the start; 90 clones, 89 of them from clones, up to 32 sources cloning at once; the copies are equal",
    );
  });
});
