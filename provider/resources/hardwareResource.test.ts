import { PREVIEW_UNKNOWN } from "../plan/normalize";
import { machineFates } from "../reconcile/runtime";
import { withKnownMachine } from "./hardwareResource";

describe("a preview whose machine key is unknown", () => {
  afterEach(() => machineFates.clear());
  const olds = { machine: "100", name: "os" };
  const news = { machine: PREVIEW_UNKNOWN, name: "os" };

  test("keeps the old key when this run's VM diff kept the VM in place", () => {
    machineFates.set("100", "kept");
    expect(withKnownMachine(olds, news)).toEqual({ machine: "100", name: "os" });
  });
  test("stays unknown (so a replacement) when the VM is replaced", () => {
    machineFates.set("100", "replaced");
    expect(withKnownMachine(olds, news)).toBe(news);
  });
  test("stays unknown when no diff of the VM was seen", () => {
    expect(withKnownMachine(olds, news)).toBe(news);
  });
  test("a known new key is never touched", () => {
    machineFates.set("100", "kept");
    const moved = { machine: "101", name: "os" };
    expect(withKnownMachine(olds, moved)).toBe(moved);
  });
});
