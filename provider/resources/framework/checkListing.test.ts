import { Session } from "../../reconcile/session";
import { CHECK_LISTING_FRESH_MS, checkListing, rowExists } from "./checkListing";
import type { PlatformApi, Row } from "../../reconcile/platform";

/** A platform whose list answers from `answers` in turn (an Error is thrown), counting the reads. */
function platform(...answers: (Row[] | Error)[]) {
  const never = async (): Promise<never> => {
    throw new Error("no such request expected");
  };
  const reads: string[] = [];
  const api: PlatformApi = {
    async list(table, query) {
      reads.push(`${table}?fields=${query?.fields}${query?.filter ? `&filter=${query.filter}` : ""}`);
      const answer = answers.shift() ?? [];
      if (answer instanceof Error) throw answer;
      return answer;
    },
    get: never,
    create: never,
    update: never,
    remove: never,
    action: never,
  };
  return { api: new Session(api), reads };
}

describe("checkListing: one read of a table's checked columns serves the checks of a run", () => {
  test("checks one after another within a minute share one read of the whole table, with only the asked columns", async () => {
    const { api, reads } = platform([{ $key: 1, name: "web" }]);
    for (let i = 0; i < 5; i++) expect(await checkListing(api, "vms", "$key,name", 1_000 + i)).toEqual([{ $key: 1, name: "web" }]);
    expect(reads).toEqual(["vms?fields=$key,name"]);
  });

  test("checks asked at once wait for the same read", async () => {
    const { api, reads } = platform([{ $key: 1 }]);
    await Promise.all([checkListing(api, "vnets", "$key", 0), checkListing(api, "vnets", "$key", 0)]);
    expect(reads).toHaveLength(1);
  });

  test("a listing older than a minute is read again", async () => {
    const { api, reads } = platform([{ $key: 1 }], [{ $key: 1 }, { $key: 2 }]);
    await checkListing(api, "vnets", "$key", 0);
    expect(await checkListing(api, "vnets", "$key", CHECK_LISTING_FRESH_MS + 1)).toHaveLength(2);
    expect(reads).toHaveLength(2);
  });

  test("each table and column list has its own listing; so has each platform", async () => {
    const one = platform([{ $key: 1 }], [{ uuid: "u" }]);
    await checkListing(one.api, "vnets", "$key", 0);
    await checkListing(one.api, "resource_groups", "uuid", 0);
    const other = platform([{ $key: 9 }]);
    expect(await checkListing(other.api, "vnets", "$key", 0)).toEqual([{ $key: 9 }]);
    expect(one.reads).toHaveLength(2);
    expect(other.reads).toHaveLength(1);
  });

  test("a failed read gives no listing (the caller looks up afresh) and is not kept: the next check reads again", async () => {
    const { api, reads } = platform(new Error("503"), [{ $key: 1 }]);
    expect(await checkListing(api, "vnets", "$key", 0)).toBeUndefined();
    expect(await checkListing(api, "vnets", "$key", 1)).toEqual([{ $key: 1 }]);
    expect(reads).toHaveLength(2);
  });
});

describe("rowExists: the listing vouches, what it lacks is looked up afresh", () => {
  test("a value the listing holds costs no request of its own", async () => {
    const { api, reads } = platform([{ $key: 3, machine: 12 }]);
    expect(await rowExists(api, "vms", "machine", "12", "$key,machine")).toBe(true);
    expect(reads).toEqual(["vms?fields=$key,machine"]);
  });

  test("a value the listing lacks is looked up by itself: found (made after the listing) or not", async () => {
    const { api, reads } = platform([{ $key: 3 }], [{ $key: 4 }], []);
    expect(await rowExists(api, "vnets", "$key", "4")).toBe(true);
    expect(await rowExists(api, "vnets", "$key", "5")).toBe(false);
    expect(reads).toEqual(["vnets?fields=$key", "vnets?fields=$key&filter=$key eq 4", "vnets?fields=$key&filter=$key eq 5"]);
  });
});
