// The Group resource through the dynamic provider against the emulator: create, read back, update in place,
// rename, drift on refresh, import with no change after, bad input refused at check naming the field, delete.
import { type Lab, checkedCreate, providers, startLab } from "./harness";

let lab: Lab;
beforeAll(async () => {
  lab = await startLab();
}, 60_000);
afterAll(() => lab.close());

describe("a group is created, changed in place, read back with drift, imported and deleted", () => {
  test("round trip", async () => {
    const p = providers.Group();
    const made = await checkedCreate(p, { name: "class-a", description: "students" });
    expect(await lab.api("GET", `groups/${made.id}?fields=name,description,enabled`)).toEqual({
      name: "class-a",
      description: "students",
      enabled: true,
    });
    const changed = (await p.check({}, { name: "class-a", description: "term 2" })).inputs;
    expect(await p.diff(made.id, made.outs, changed)).toMatchObject({ changes: true, replaces: [] });
    const outs = (await p.update(made.id, made.outs, changed)).outs;
    expect((await lab.api("GET", `groups/${made.id}?fields=description`)).description).toBe("term 2");

    // Drift: a change made in the platform's UI shows on refresh, and the next update puts it back.
    await lab.api("PUT", `groups/${made.id}`, { enabled: false });
    const refreshed = await p.read(made.id, outs);
    expect(refreshed.props).toMatchObject({ enabled: false });
    expect(await p.diff(made.id, refreshed.props, changed)).toMatchObject({ changes: true });

    // Import: what the platform answers is declared, and that declaration previews no change.
    const imported = await p.read(made.id, {});
    const declared = (await p.check({}, imported.inputs)).inputs;
    expect(await p.diff(made.id, imported.props, declared)).toMatchObject({ changes: false });

    await p.delete(made.id, outs);
    expect((await p.read(made.id, outs)).id).toBe(""); // gone: the engine drops it from the state
  });

  test("bad input is refused at check, naming the field", async () => {
    const p = providers.Group();
    const checked = await p.check({}, { name: "" });
    expect(checked.failures?.map((f: { property: string }) => f.property)).toContain("name");
    const unknown = await p.check({}, { name: "g", colour: "red" });
    expect(JSON.stringify(unknown.failures)).toMatch(/colour/);
  });
});

describe("a group's members are exactly the declared ones", () => {
  test("made with the group, read back, added and removed in place, an outside member is drift, imported with them", async () => {
    const users = providers.User();
    const [ana, bob, eve] = await Promise.all(["m-ana", "m-bob", "m-eve"].map((name) => checkedCreate(users, { name })));
    const inner = await checkedCreate(providers.Group(), { name: "m-inner" });
    const p = providers.Group();
    const made = await checkedCreate(p, { name: "m-class", users: [bob.id, ana.id], memberGroups: [inner.id] });
    const members = async () =>
      ((await lab.api("GET", `members?filter=parent_group%20eq%20${made.id}&fields=member`)) as { member: string }[])
        .map((m) => m.member)
        .sort();
    expect(await members()).toEqual([`groups/${inner.id}`, `users/${ana.id}`, `users/${bob.id}`].sort());
    expect(made.outs.users).toEqual([ana.id, bob.id].sort((a, b) => Number(a) - Number(b)));

    // In place: bob leaves, eve joins; the group is the same row.
    const changed = (await p.check(made.outs, { name: "m-class", users: [ana.id, eve.id], memberGroups: [inner.id] })).inputs;
    expect(await p.diff(made.id, made.outs, changed)).toMatchObject({ changes: true, replaces: [] });
    const outs = (await p.update(made.id, made.outs, changed)).outs;
    expect(await members()).toEqual([`groups/${inner.id}`, `users/${ana.id}`, `users/${eve.id}`].sort());

    // Drift: a user put in the group on the platform (as some clients write it) shows on refresh; the update removes it.
    await lab.api("POST", "members", { parent_group: made.id, member: `/v4/users/${bob.id}` });
    const refreshed = await p.read(made.id, outs);
    expect(refreshed.props.users).toContain(bob.id);
    expect(await p.diff(made.id, refreshed.props, changed)).toMatchObject({ changes: true, replaces: [] });
    await p.update(made.id, refreshed.props, changed);
    expect(await members()).toEqual([`groups/${inner.id}`, `users/${ana.id}`, `users/${eve.id}`].sort());

    // Import: the members are declared too, and previewed with no change.
    const imported = await p.read(made.id, {});
    expect(imported.inputs).toMatchObject({ users: changed.users, memberGroups: [inner.id] });
    expect(await p.diff(made.id, imported.props, (await p.check({}, imported.inputs)).inputs)).toMatchObject({ changes: false });

    // A group that does not declare its members leaves them alone.
    const unmanaged = (await p.check(outs, { name: "m-class" })).inputs;
    await p.update(made.id, outs, unmanaged);
    expect(await members()).toHaveLength(3);
    await p.delete(made.id, outs);
    expect(await members()).toEqual([]); // the platform deletes the memberships with the group
  });

  test("a member that does not exist is refused at check, naming the field", async () => {
    const checked = await providers.Group().check({}, { name: "m-bad", users: ["99999"] });
    expect(checked.failures?.map((f: { property: string }) => f.property)).toEqual(["users"]);
    const bad = await providers.Group().check({}, { name: "m-bad", memberGroups: ["x"] });
    expect(JSON.stringify(bad.failures)).toMatch(/memberGroups/);
  });
});
