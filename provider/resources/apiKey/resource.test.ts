// What the ApiKey's declaration makes of a change, and which expiry check refuses: pure, no platform.
import { PlatformClock } from "../../client/platformClock";
import type { PlatformApi } from "../../reconcile/platform";
import { Session } from "../../reconcile/session";
import { apiKey } from "./resource";

const ops = apiKey.operations;
/** A session whose platform's clock has told it a time `aheadMs` ahead of ours (it is never asked anything). */
const sessionAhead = (aheadMs: number) => {
  const clock = new PlatformClock();
  clock.observe(new Date(Date.now() + aheadMs).toUTCString());
  return new Session({ clock } as unknown as PlatformApi);
};
const session = sessionAhead(0);
const recorded = { name: "ci", user: "4", description: "", expires: "never", ipAllowList: [], ipDenyList: [], rotation: "1" };

describe("rotation and user replace the key, create before delete; the rest changes in place", () => {
  test.each([
    ["rotation", { rotation: "2" }],
    ["user", { user: "5" }],
  ])("a new %s replaces the key, and the old one is deleted only after the new one exists", async (field, change) => {
    expect(await ops.diff("9", recorded, { ...recorded, ...change })).toEqual({
      changes: true,
      replaces: [field],
      deleteBeforeReplace: false,
    });
  });

  test("name, description, expiry and IP lists change in place", async () => {
    const news = {
      ...recorded,
      name: "ci2",
      description: "d",
      expires: "2099-01-01",
      ipDenyList: [{ address: "192.0.2.0/24", enabled: true }],
    };
    expect(await ops.diff("9", recorded, news)).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
  });
});

describe("a past expiry is refused only when it is new", () => {
  test("a new key's past expiry is refused, naming expires", async () => {
    const { failures } = await ops.check(session, { name: "ci", expires: "2020-01-01" }, {});
    expect(failures).toEqual([{ property: "expires", reason: expect.stringContaining("is in the past") }]);
  });

  test("a recorded expiry that has passed since is no bad input (refresh has dropped or will drop the key)", async () => {
    const olds = { ...recorded, expires: "2020-01-01" };
    expect((await ops.check(session, { name: "ci", expires: "2020-01-01" }, olds)).failures).toBeUndefined();
  });

  test("past by the platform's clock, which decides: a date an hour ahead of ours is refused on a platform a day ahead", async () => {
    const inAnHour = new Date(Date.now() + 3600_000).toISOString();
    expect((await ops.check(session, { name: "ci", expires: inAnHour }, {})).failures).toBeUndefined();
    const { failures } = await ops.check(sessionAhead(86_400_000), { name: "ci", expires: inAnHour }, {});
    expect(failures).toEqual([{ property: "expires", reason: expect.stringContaining("is in the past") }]);
  });

  test("only a new date needs the platform's time: a key that never expires, or a recorded date, asks nothing", async () => {
    const asked: string[] = [];
    const list = async (table: string) => (asked.push(table), []);
    const unanswered = new Session({ clock: new PlatformClock(), list } as unknown as PlatformApi);
    expect((await ops.check(unanswered, { name: "ci", expires: "never" }, {})).failures).toBeUndefined();
    expect(
      (await ops.check(unanswered, { name: "ci", expires: "2020-01-01" }, { ...recorded, expires: "2020-01-01" })).failures,
    ).toBeUndefined();
    expect(asked).toEqual([]);
    await ops.check(unanswered, { name: "ci", expires: "2099-01-01" }, {});
    expect(asked).toEqual(["user_api_keys"]);
  });
});
