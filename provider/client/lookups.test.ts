import type { ApiClient, ListQuery } from "./api-client";
import {
  LOOKUPS,
  LookupError,
  findMediaFileByName,
  findStorageTierByName,
  findVmByName,
  findVnetByName,
  storageTierFilter,
} from "./lookups";

/** A client whose list() answers from `rows` and records the queries. */
function fakeClient(rows: Record<string, unknown>[]) {
  const queries: { table: string; query?: ListQuery }[] = [];
  const client = {
    list: async (table: string, query?: ListQuery) => {
      queries.push({ table, query });
      return rows;
    },
  } as unknown as ApiClient;
  return { client, queries };
}

describe("filters", () => {
  test("a name is an exact, quoted match with quotes doubled", () => {
    expect(LOOKUPS.vnet.filterFor("O'Brien net")).toBe("name eq 'O''Brien net'");
  });
  test("VMs exclude snapshots (snapshots are VMs too)", () => {
    expect(LOOKUPS.vm.filterFor("web")).toBe("name eq 'web' and is_snapshot eq false");
  });
  test.each([
    ["3", "tier eq 3"],
    ["Tier 3", "tier eq 3"],
    ["tier5", "tier eq 5"],
    ["Fast SSD", "description eq 'Fast SSD'"],
    ["it's", "description eq 'it''s'"],
  ])("storage tier '%s' is looked up by %s", (name, filter) => expect(storageTierFilter(name)).toBe(filter));
  test("each look-up reads its table", () => {
    expect(Object.fromEntries(Object.entries(LOOKUPS).map(([k, l]) => [k, l.table]))).toEqual({
      vnet: "vnets",
      vm: "vms",
      cluster: "clusters",
      storageTier: "storage_tiers",
      resourceGroup: "resource_groups",
      vgpuDevice: "node_nvidia_vgpu_devices",
      mediaFile: "files",
    });
  });
});

describe("results", () => {
  test("one row is returned; two are asked for so ambiguity shows", async () => {
    const { client, queries } = fakeClient([{ $key: 7, name: "lan" }]);
    await expect(findVnetByName(client, "lan", "$key,name")).resolves.toEqual({ $key: 7, name: "lan" });
    expect(queries).toEqual([{ table: "vnets", query: { filter: "name eq 'lan'", fields: "$key,name", limit: 2 } }]);
  });

  test("no row: a LookupError saying what was not found", async () => {
    const { client } = fakeClient([]);
    const err = await findVmByName(client, "web-1").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LookupError);
    expect(err).toMatchObject({ kind: "none", message: "no VM named 'web-1'" });
    await expect(findStorageTierByName(client, "9")).rejects.toThrow("no storage tier named '9'");
  });

  test("more than one row: an ambiguity error", async () => {
    const { client } = fakeClient([{ $key: 1 }, { $key: 2 }]);
    await expect(findMediaFileByName(client, "debian.iso")).rejects.toMatchObject({
      kind: "ambiguous",
      message: "more than one media file named 'debian.iso'",
    });
  });
});
