import { PREVIEW_UNKNOWN } from "../schemas/normalize";
import { withKnownMachine } from "./hardwareResource";

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
