import { planByRules, planDriveSize } from "./plans";

const rules = { fields: ["name", "machine", "disksize", "timeouts"], replaceOn: ["machine"], uniqueName: true };

describe("planByRules", () => {
  test("changed fields are updates; replaceOn fields are replacements with a printed reason", () => {
    const d = planByRules({ name: "os", machine: "54", disksize: 1 }, { name: "os", machine: "55", disksize: 2 }, rules);
    expect(d.changes).toEqual(["machine", "disksize"]);
    expect(d.replaces).toEqual(["machine"]);
    expect(d.notes[0]).toContain('machine changes from "54" to "55"');
  });

  test("unique names: the old object goes first unless the name changes too", () => {
    expect(planByRules({ name: "a", machine: "1" }, { name: "a", machine: "2" }, rules).deleteBeforeReplace).toBe(true);
    expect(planByRules({ name: "a", machine: "1" }, { name: "b", machine: "2" }, rules).deleteBeforeReplace).toBe(false);
  });

  test("identical inputs (computed outputs aside) are no change", () => {
    expect(planByRules({ name: "a", machine: "1", machineKey: "9" }, { name: "a", machine: "1" }, rules).changes).toEqual([]);
  });
});

describe("planDriveSize", () => {
  const base = { changes: ["disksize"], replaces: [], deleteBeforeReplace: false, notes: [] };
  test("growing is an in-place update", () => {
    expect(planDriveSize({ disksize: 10 }, { disksize: 20 }, base)).toEqual(base);
  });
  test("shrinking is a replacement, announced loudly", () => {
    const d = planDriveSize({ disksize: 20 }, { name: "os", disksize: 10 }, base);
    expect(d.replaces).toEqual(["disksize"]);
    expect(d.notes.join()).toMatch(/SHRINK.*REPLACED.*ALL DATA ON IT LOST/);
  });
});
