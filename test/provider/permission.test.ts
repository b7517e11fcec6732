// The Permission resource through the dynamic provider against the emulator: a grant to a user or a group on a
// table or one row is created with the grantee's identity, read back, changed in place (a right), replaced (its
// row), drifts on refresh when changed or revoked on the platform, imports with no change after, and refuses bad
// input at check naming the field (unknown table, user and group both or neither, a row that does not exist). The
// grant does what it says: the user's key reaches the granted VM and nothing else.
import * as https from "node:https";
import { jsonRequest } from "../../emulator/client/jsonRequest";
import { type Lab, checkedCreate, mutating, providers, startLab } from "./harness";

let lab: Lab;
let user: string;
let vm: string;
let otherVm: string;
beforeAll(async () => {
  lab = await startLab();
  user = (await checkedCreate(providers.User(), { name: "perm-student", role: "none" })).id;
  const vms = providers.VirtualMachine();
  vm = (await checkedCreate(vms, { name: "perm-own", ram: 1024 })).id;
  otherVm = (await checkedCreate(vms, { name: "perm-other", ram: 1024 })).id;
}, 60_000);
afterAll(() => lab.close());

const grants = () => lab.api("GET", "permissions?fields=$key,identity,table,row,list,read,create,modify,delete&sort=+$key");
/** The fields a check names: the property, or (a field the program did not give) the reason's leading field. */
const failedFields = (checked: { failures?: { property: string; reason: string }[] }) =>
  (checked.failures ?? []).map((f) => f.property || /^(\w+):/.exec(f.reason)?.[1]);

/** A key of the user (made on the platform directly: the test's arrangement). */
async function keyOf(userKey: string): Promise<string> {
  const made = await lab.api("POST", "user_api_keys", { user: userKey, name: `k${Date.now()}` });
  return made.response.private_key;
}
const asUser = async (secret: string, path: string) => {
  const agent = new https.Agent({ ca: lab.emu.caCert });
  const reply = await jsonRequest({
    method: "GET",
    url: `${lab.emu.url}/api/v4/${path}`,
    agent,
    headers: { authorization: `Bearer ${secret}` },
  });
  return { statusCode: reply.status, body: reply.text };
};

describe("a grant to a user on one row", () => {
  test("is created with the user's identity, gives exactly its rights, changes in place, drifts, imports and is deleted", async () => {
    const p = providers.Permission();
    const made = await checkedCreate(p, { user, table: "vms", row: vm, read: true, modify: true });
    const { identity } = await lab.api("GET", `users/${user}?fields=identity`);
    expect(await lab.api("GET", `permissions/${made.id}?fields=identity,table,row,list,read,create,modify,delete`)).toEqual({
      identity,
      table: "vms",
      row: vm,
      list: true,
      read: true,
      create: false,
      modify: true,
      delete: false,
    });

    // What it grants: the user's key lists and reads that VM alone.
    const secret = await keyOf(user);
    const listed = JSON.parse((await asUser(secret, "vms?fields=$key")).body).map((r: { $key: unknown }) => String(r.$key));
    expect(listed).toEqual([vm]);
    expect((await asUser(secret, `vms/${otherVm}`)).statusCode).toBe(403);

    // A right changed in place: a PUT, no replacement.
    const changed = (await p.check(made.outs, { user, table: "vms", row: vm, read: true })).inputs;
    expect(await p.diff(made.id, made.outs, changed)).toMatchObject({ changes: true, replaces: [] });
    await lab.resetRequests();
    const outs = (await p.update(made.id, made.outs, changed)).outs;
    expect(mutating((await lab.requests()).entries)).toEqual([expect.objectContaining({ method: "PUT", table: "permissions" })]);
    expect((await lab.api("GET", `permissions/${made.id}?fields=modify`)).modify).toBe(false);

    // The row changed: a replacement.
    const moved = (await p.check(outs, { user, table: "vms", row: otherVm, read: true })).inputs;
    expect((await p.diff(made.id, outs, moved)).replaces).toEqual(["row"]);

    // Drift: a right given on the platform shows on refresh; the next update takes it back.
    await lab.api("PUT", `permissions/${made.id}`, { delete: true });
    const refreshed = await p.read(made.id, outs);
    expect(refreshed.props).toMatchObject({ delete: true });
    expect(await p.diff(made.id, refreshed.props, changed)).toMatchObject({ changes: true, replaces: [] });
    await p.update(made.id, refreshed.props, changed);
    expect((await lab.api("GET", `permissions/${made.id}?fields=delete`)).delete).toBe(false);

    // Import: what the platform answers is the declaration (the user from the grant's identity), and it previews no change.
    const imported = await p.read(made.id, {});
    expect(imported.inputs).toMatchObject({ user, table: "vms", row: vm, read: true, modify: false });
    expect(imported.inputs.group).toBeUndefined();
    const declared = (await p.check({}, imported.inputs)).inputs;
    expect(await p.diff(made.id, imported.props, declared)).toMatchObject({ changes: false });

    // Revoked on the platform: the refresh drops it, so the next up grants it again.
    await p.delete(made.id, outs);
    expect((await p.read(made.id, outs)).id).toBe("");
    expect(JSON.parse((await asUser(secret, "vms?fields=$key")).body)).toEqual([]);
  });

  test("a grant made again after a lost answer is the same grant: one row", async () => {
    const p = providers.Permission();
    const inputs = (await p.check({}, { user, table: "vnets", read: true })).inputs;
    const first = await p.create(inputs);
    const again = await p.create(inputs); // the platform answers 409; the grant found is identical: taken over
    expect(again.id).toBe(first.id);
    expect((await grants()).filter((g: { table: string }) => g.table === "vnets")).toHaveLength(1);
    await p.delete(first.id, first.outs);
  });

  test("a grant that exists with other rights is refused, naming it, and nothing is changed", async () => {
    const p = providers.Permission();
    const made = await checkedCreate(p, { user, table: "machine_snapshots", read: true });
    const before = await grants();
    const other = (await p.check({}, { user, table: "machine_snapshots", read: true, delete: true })).inputs;
    await expect(p.create(other)).rejects.toThrow(/permission for that identity, table and row exists/);
    expect(await grants()).toEqual(before);
    await p.delete(made.id, made.outs);
  });
});

describe("a grant to a group reaches its members", () => {
  test("a group with the user as member, granted read on every vnet: the user's key lists them", async () => {
    const group = await checkedCreate(providers.Group(), { name: "perm-readers", users: [user] });
    const p = providers.Permission();
    const made = await checkedCreate(p, { group: group.id, table: "vnets", read: true });
    expect((await p.read(made.id, {})).inputs).toMatchObject({ group: group.id, table: "vnets" });
    await lab.api("POST", "vnets", { name: "perm-net", network: "10.91.0.0/24" });
    const secret = await keyOf(user);
    const listed = JSON.parse((await asUser(secret, "vnets?fields=name")).body).map((r: { name: string }) => r.name);
    expect(listed).toContain("perm-net");
    await p.delete(made.id, made.outs);
    expect(JSON.parse((await asUser(secret, "vnets?fields=name")).body)).toEqual([]);
  });
});

describe("bad input is refused at check, naming the field, with no mutating request", () => {
  test.each([
    ["an unknown table", { user: "__user__", table: "gadgets" }, "table"],
    ["user and group both", { user: "__user__", group: "1", table: "vms" }, "group"],
    ["neither user nor group", { table: "vms" }, "user"],
    ["a row that does not exist", { user: "__user__", table: "vms", row: "99999" }, "row"],
    ["a user that does not exist", { user: "99999", table: "vms" }, "user"],
    ["read without list", { user: "__user__", table: "vms", read: true, list: false }, "list"],
    ["a row of every table", { user: "__user__", table: "/", row: "5" }, "row"],
    ["row 0 (the whole table)", { user: "__user__", table: "vms", row: "0" }, "row"],
    ["an unknown right", { user: "__user__", table: "vms", admin: true }, "admin"],
  ])("%s", async (_what, declared, field) => {
    const inputs = JSON.parse(JSON.stringify(declared).replace(/__user__/g, user));
    await lab.resetRequests();
    const checked = await providers.Permission().check({}, inputs);
    expect(failedFields(checked)).toEqual([field]);
    expect(mutating((await lab.requests()).entries)).toEqual([]);
  });

  test("a whole table, and every table, are accepted", async () => {
    const p = providers.Permission();
    expect(failedFields(await p.check({}, { user, table: "machine_nics" }))).toEqual([]);
    expect(failedFields(await p.check({}, { user, table: "/", read: true }))).toEqual([]);
  });
});
