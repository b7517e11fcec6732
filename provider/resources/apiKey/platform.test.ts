// The API key operations' own rules, with a fake platform: a key answered without its secret is
// deleted again (nobody could use it), and an expired key reads as gone.
import type { PlatformApi, Row } from "../../reconcile/platform";
import { apiKeyInputsSchema } from "./schema";
import { createApiKey, hasExpired, readApiKey } from "./platform";
import { apiKey } from "./resource";
import { rowsOf } from "../framework/defineResource";
import type { ApiKeyInputs } from "./schema";

const apiKeyRows = rowsOf<ApiKeyInputs>(apiKey);

function fakePlatform(answer: { response?: Row }, row?: Row) {
  const calls: string[] = [];
  const api: PlatformApi = {
    list: async (table) => (calls.push(`LIST ${table}`), []),
    get: async (table, key) => (calls.push(`GET ${table}/${key}`), row),
    create: async (table) => (calls.push(`POST ${table}`), { $key: "9", ...answer }),
    action: async () => ({}),
    update: async () => {},
    remove: async (table, key) => void calls.push(`DELETE ${table}/${key}`),
  };
  return { api, calls };
}

const inputs = apiKeyInputsSchema.parse({ name: "ci" });
const opts = { marker: "m-0001", budgetMs: 1000 };

describe("the secret answered at creation is handed back, or the key is deleted again", () => {
  test("token (or private_key) is the secret", async () => {
    expect((await createApiKey(fakePlatform({ response: { token: "vpk_a" } }).api, apiKeyRows, inputs, opts)).secret.reveal()).toBe(
      "vpk_a",
    );
    expect((await createApiKey(fakePlatform({ response: { private_key: "vpk_b" } }).api, apiKeyRows, inputs, opts)).secret.reveal()).toBe(
      "vpk_b",
    );
  });
  test.each([{}, { response: {} }, { response: { token: "" } }])(
    "answered %j: deleted again, and the create fails saying so",
    async (answer) => {
      const { api, calls } = fakePlatform(answer);
      await expect(createApiKey(api, apiKeyRows, inputs, opts)).rejects.toThrow(
        "vplatform: the platform created the API key 'ci' but answered no secret; the key was deleted again: run the update again",
      );
      expect(calls).toEqual(["LIST user_api_keys", "POST user_api_keys", "DELETE user_api_keys/9"]);
    },
  );
});

describe("a key an interrupted attempt made is looked for before the first send only where one can exist", () => {
  test("a key of a user made in this session is sent at once: no earlier attempt can have made one for that user", async () => {
    const { api, calls } = fakePlatform({ response: { token: "vpk_a" } });
    await createApiKey(api, apiKeyRows, inputs, { ...opts, newUser: true });
    expect(calls).toEqual(["POST user_api_keys"]);
  });
  test("any other key (an existing user's, the provider's own) is looked for by its marker first", async () => {
    const { api, calls } = fakePlatform({ response: { token: "vpk_a" } });
    await createApiKey(api, apiKeyRows, inputs, opts);
    expect(calls).toEqual(["LIST user_api_keys", "POST user_api_keys"]);
  });
});

describe("an expired key reads as gone", () => {
  const at = (seconds: number) => seconds * 1000;
  test("expiry 0 never expires; a past or present expiry has expired", () => {
    expect([
      hasExpired({ expires: 0 }, at(5)),
      hasExpired({ expires: 6 }, at(5)),
      hasExpired({ expires: 5 }, at(5)),
      hasExpired({ expires: "4" }, at(5)),
    ]).toEqual([false, false, true, true]);
  });
  test("readApiKey answers undefined for an expired row, the state for a live one", async () => {
    const row = { $key: 9, name: "ci", expires: 100, expires_type: "date", created: 50, lastlogin_stamp: 0, lastlogin_ip: "" };
    expect(await readApiKey(fakePlatform({}, row).api, apiKeyRows, "9", () => at(100))).toBeUndefined();
    expect(await readApiKey(fakePlatform({}, row).api, apiKeyRows, "9", () => at(99))).toMatchObject({
      created: 50,
      lastLoginStamp: 0,
      lastLoginIp: "",
    });
  });
  test("the time is asked after the read: the read's answer is what tells the platform's time", async () => {
    const row = { $key: 9, name: "ci", expires: 100, expires_type: "date", created: 50 };
    const { api, calls } = fakePlatform({}, row);
    const asked: string[][] = [];
    await readApiKey(api, apiKeyRows, "9", () => (asked.push([...calls]), at(99)));
    expect(asked).toEqual([["GET user_api_keys/9"]]);
  });
});
