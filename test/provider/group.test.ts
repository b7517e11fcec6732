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
