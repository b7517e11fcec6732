import { ReadCopies, READ_COPY_FRESH_MS } from "./readCopy";
import { ANY_MARKER_FILTER } from "./createMarker";
import type { PlatformApi, Row } from "./platform";
import { Session } from "./session";

/** A platform whose list answers `rows` (or throws `fail`), counting the reads. */
function platform(rows: Row[], fail?: Error) {
  const never = async (): Promise<never> => {
    throw new Error("no such request expected");
  };
  const reads: string[] = [];
  const api: PlatformApi = {
    async list(table, query) {
      reads.push(`${table}?fields=${query?.fields}&filter=${query?.filter}`);
      if (fail) throw fail;
      return rows;
    },
    get: never,
    create: never,
    update: never,
    remove: never,
    action: never,
  };
  return { api, reads };
}

const tagged = [
  { $key: 1, name: "a" },
  { $key: 2, name: "b" },
];

describe("ReadCopies: the reads of a run are answered from one read of the table's marked rows", () => {
  test("reads of several rows cost one GET of the rows that carry a create marker, with the asked fields and $key", async () => {
    const { api, reads } = platform(tagged);
    const copies = new ReadCopies(
      api,
      () => 0,
      () => 0,
    );
    expect(await Promise.all([copies.serve("vnets", "1", "name"), copies.serve("vnets", "2", "name")])).toEqual(tagged);
    expect(reads).toEqual([`vnets?fields=$key,name&filter=${ANY_MARKER_FILTER}`]);
  });

  test("a row the copy does not hold (gone, or adopted without a marker) is not vouched for: the caller reads it", async () => {
    const copies = new ReadCopies(
      platform(tagged).api,
      () => 0,
      () => 0,
    );
    expect(await copies.serve("vnets", "9", "name")).toBeUndefined();
  });

  test("a row is served once: a second read of it wants the platform's word", async () => {
    const copies = new ReadCopies(
      platform(tagged).api,
      () => 0,
      () => 0,
    );
    expect(await copies.serve("vnets", "1", "name")).toEqual(tagged[0]);
    expect(await copies.serve("vnets", "1", "name")).toBeUndefined();
  });

  test("a change sent since the copy was asked for makes it stale: the next read takes a new copy", async () => {
    const { api, reads } = platform(tagged);
    let mutations = 0;
    const copies = new ReadCopies(
      api,
      () => mutations,
      () => 0,
    );
    await copies.serve("vnets", "1", "name");
    mutations++;
    expect(await copies.serve("vnets", "2", "name")).toEqual(tagged[1]);
    expect(reads).toHaveLength(2);
  });

  test("a change sent while the copy was being read makes the copy serve nothing", async () => {
    let mutations = 0;
    const { api } = platform(tagged);
    const copies = new ReadCopies(
      { ...api, list: async (t, q) => ((mutations += 2), api.list(t, q)) },
      () => mutations,
      () => 0,
    );
    expect(await copies.serve("vnets", "1", "name")).toBeUndefined();
  });

  test("a copy older than its freshness is read again", async () => {
    const { api, reads } = platform(tagged);
    let now = 0;
    const copies = new ReadCopies(
      api,
      () => 0,
      () => now,
    );
    await copies.serve("vnets", "1", "name");
    now = READ_COPY_FRESH_MS + 1;
    await copies.serve("vnets", "2", "name");
    expect(reads).toHaveLength(2);
  });

  test("a failed copy leaves the reads to the caller", async () => {
    const failing = new ReadCopies(
      platform([], new Error("503")).api,
      () => 0,
      () => 0,
    );
    expect(await failing.serve("vnets", "1", "name")).toBeUndefined();
  });
});

describe("a session answers from a copy only the reads of the table a read operation lists", () => {
  /** A session over `platform(tagged)` that records its GETs. */
  function session() {
    const { api, reads } = platform(tagged);
    const gets: string[] = [];
    const get = async (table: string, key: string) => (gets.push(`${table}/${key}`), { $key: Number(key) });
    return { session: new Session({ ...api, get }), reads, gets };
  }

  test("a read operation's rows of its listed table come from one listing", async () => {
    const { session: s, reads, gets } = session();
    expect(await s.reading("vnets", () => Promise.all([s.get("vnets", "1", "name"), s.get("vnets", "2", "name")]))).toEqual(tagged);
    expect([reads.length, gets]).toEqual([1, []]);
  });

  test("another table (a device's rows carry no marker in their description), a read listing none, and reads outside a read operation go to the platform", async () => {
    const { session: s, reads, gets } = session();
    await s.reading("vnets", () => s.get("machine_devices", "1", "name"));
    await s.reading(undefined, () => s.get("vnets", "1", "name"));
    await s.get("vnets", "2", "name");
    expect([reads, gets]).toEqual([[], ["machine_devices/1", "vnets/1", "vnets/2"]]);
  });
});
