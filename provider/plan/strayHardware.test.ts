import { cloneBaseline, describeStrays, formatBaseline, type MachineHardware, parseBaseline, strayHardware } from "./strayHardware";

const nic = (key: string, marked = false, vnet = "7"): MachineHardware => ({ kind: "nic", key, name: `nic_${key}`, marked, vnet });
const drive = (key: string, marked = false): MachineHardware => ({ kind: "drive", key, name: `drive_${key}`, marked });

describe("stray hardware is what neither a declaration made nor the VM had when made", () => {
  test("marked rows (made by a declaration) and baseline rows (a clone's copies) are the VM's own", () => {
    expect(strayHardware([nic("1", true), nic("2"), drive("3")], "nic:2")).toEqual([drive("3")]);
  });
  test("no baseline recorded: every unmarked row is stray", () => {
    expect(strayHardware([nic("2"), drive("3", true)], undefined)).toEqual([nic("2")]);
  });
  test("in kind, then key order; described with a NIC's vnet", () => {
    const strays = strayHardware([nic("12"), drive("40"), nic("9", false, "3")], "");
    expect(strays.map((s) => `${s.kind}:${s.key}`)).toEqual(["drive:40", "nic:9", "nic:12"]);
    expect(describeStrays(strays)).toBe("drive 'drive_40' (key 40); NIC 'nic_9' (key 9) on vnet 3; NIC 'nic_12' (key 12) on vnet 7");
  });
  test("the baseline round-trips through its text, in one order", () => {
    const text = formatBaseline([nic("2"), drive("3")]);
    expect(text).toBe("drive:3,nic:2");
    expect([...parseBaseline(text)]).toEqual(["drive:3", "nic:2"]);
    expect([...parseBaseline("")]).toEqual([]);
  });
});

describe("a clone made now: its baseline is known from its source's hardware when that is all declared", () => {
  test("every row of the source marked (a golden VM's declared drive and NIC): the clone's copies are marked too, its baseline empty", () => {
    expect(cloneBaseline([drive("1", true), nic("2", true)])).toBe("");
    expect(cloneBaseline([])).toBe("");
  });
  test("a row of the source no create made (a NIC added in the UI): its copy's key is the clone's own, so the clone is read", () => {
    expect(cloneBaseline([drive("1", true), nic("2")])).toBeUndefined();
  });
});
