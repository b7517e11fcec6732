// A grantee's identity: read once per session, the reads of rows asked meanwhile joined into one GET.
import { BatchReader } from "../client/batchReader";
import { identityOf } from "./identities";
import type { PlatformApi, Row } from "./platform";
import { Session } from "./session";

/** A platform of `users` rows whose identity is 1000 + key; its reads join as the real client's do (BatchReader). */
function platform(opts: { failFirst?: boolean } = {}) {
  const gets: string[] = [];
  let fail = opts.failFirst === true;
  const list = async (table: string, query?: { filter?: string }): Promise<Row[]> => {
    gets.push(`${table}?${query?.filter}`);
    if (fail) {
      fail = false;
      throw Object.assign(new Error("502 bad gateway"), { status: 502 });
    }
    const keys = [...String(query?.filter).matchAll(/\$key eq (\d+)/g)].map((m) => Number(m[1]));
    return keys.filter((k) => k < 100).map((k) => ({ $key: k, identity: 1000 + k }));
  };
  const reader = new BatchReader(list, 20);
  const api = {
    list,
    get: async (table: string, key: string, fields?: string) => (await reader.load(table, "$key", key, fields ?? ""))[0],
  } as unknown as PlatformApi;
  return { session: new Session(api), gets };
}

describe("a user's identity, what its grants name", () => {
  test("the identities of 30 users asked together cost one GET; asked again, none", async () => {
    const { session, gets } = platform();
    const keys = Array.from({ length: 30 }, (_, i) => String(i + 1));
    expect(await Promise.all(keys.map((k) => identityOf(session, "users", k, "user")))).toEqual(keys.map((k) => 1000 + Number(k)));
    expect(gets).toHaveLength(1);
    await Promise.all(keys.map((k) => identityOf(session, "users", k, "user")));
    expect(gets).toHaveLength(1);
  });

  test("a user that does not exist is an error naming it; a failed read is tried again by the next ask", async () => {
    const { session, gets } = platform({ failFirst: true });
    await expect(identityOf(session, "users", "5", "user")).rejects.toThrow("502");
    expect(await identityOf(session, "users", "5", "user")).toBe(1005);
    expect(gets).toHaveLength(2);
    await expect(identityOf(session, "users", "404", "user")).rejects.toThrow("user: no user with key '404' exists");
  });

  test("sessions share nothing: another site's user 5 is read by that site", async () => {
    const a = platform();
    const b = platform();
    await identityOf(a.session, "users", "5", "user");
    await identityOf(b.session, "users", "5", "user");
    expect([a.gets.length, b.gets.length]).toEqual([1, 1]);
  });
});
