import { PREVIEW_UNKNOWN } from "../../schemas/normalize";
import { diffDrive } from "../drive/resource";
import { ownerInputsAloneAreNoChange, withKnownMachine } from "./hardwareResource";

describe("a preview whose machine key is unknown", () => {
  const olds = { machine: "100", vm: "7", name: "os" };

  test("keeps the old key when the VM key is known and unchanged (the VM is updated in place)", () => {
    expect(withKnownMachine(olds, { machine: PREVIEW_UNKNOWN, vm: "7", name: "os" })).toEqual({ machine: "100", vm: "7", name: "os" });
  });
  test("stays unknown (so a replacement) when the VM key is unknown too (the VM is replaced)", () => {
    const news = { machine: PREVIEW_UNKNOWN, vm: PREVIEW_UNKNOWN, name: "os" };
    expect(withKnownMachine(olds, news)).toBe(news);
  });
  test("stays unknown when the VM key is not given (a machine key from elsewhere)", () => {
    const news = { machine: PREVIEW_UNKNOWN, name: "os" };
    expect(withKnownMachine({ machine: "100", name: "os" }, news)).toBe(news);
  });
  test("stays unknown when the hardware moves to another VM", () => {
    const news = { machine: PREVIEW_UNKNOWN, vm: "8", name: "os" };
    expect(withKnownMachine(olds, news)).toBe(news);
  });
  test("a known new key is never touched", () => {
    const moved = { machine: "101", vm: "7", name: "os" };
    expect(withKnownMachine(olds, moved)).toBe(moved);
  });
});

describe("the owner fields the SDK copies from the VM are bookkeeping", () => {
  const diff = (olds: Record<string, unknown>, news: Record<string, unknown>) => ownerInputsAloneAreNoChange(diffDrive(olds, news));
  const drive = {
    machine: "100",
    vm: "7",
    name: "os",
    media: "disk",
    interface: "virtio-scsi",
    disksize: 10 * 2 ** 30,
    powerCyclePolicy: "restart",
  };

  test("a change of the VM's policy alone is no change for the engine (stock --expect-no-changes passes)", () => {
    expect(diff(drive, { ...drive, powerCyclePolicy: "refuse" }).changes).toBe(false);
  });
  test("a real change beside it is still a change, and keeps the policy among its updates", () => {
    const d = diff(drive, { ...drive, powerCyclePolicy: "refuse", disksize: 20 * 2 ** 30 });
    expect(d.changes).toBe(true);
    expect(d.updates).toEqual(expect.arrayContaining(["disksize", "powerCyclePolicy"]));
  });
  test("a replacement is never hidden", () => {
    expect(diff(drive, { ...drive, machine: "101", vm: "8" }).changes).toBe(true);
  });
});
