import { PREVIEW_UNKNOWN } from "../schemas/normalize";
import { machineOfUpdatedVm } from "./machineOfUpdatedVm";

const recorded = { machine: "101", vm: "42", disksize: 10 };

describe("hardware of a VM updated in place keeps its machine in a preview (no re-attach shown)", () => {
  test("machine unknown, the same VM key: the recorded machine stands", () => {
    const news = { machine: PREVIEW_UNKNOWN, vm: "42", disksize: 20 };
    expect(machineOfUpdatedVm(recorded, news)).toEqual({ machine: "101", vm: "42", disksize: 20 });
  });

  test("the VM is replaced (its key is unknown): the machine stays unknown", () => {
    const news = { machine: PREVIEW_UNKNOWN, vm: PREVIEW_UNKNOWN, disksize: 20 };
    expect(machineOfUpdatedVm(recorded, news)).toBe(news);
  });

  test("another VM: the machine stays unknown", () => {
    const news = { machine: PREVIEW_UNKNOWN, vm: "43" };
    expect(machineOfUpdatedVm(recorded, news)).toBe(news);
  });

  test("a new resource, or one recorded without its VM key: nothing to keep", () => {
    const news = { machine: PREVIEW_UNKNOWN, vm: "42" };
    expect(machineOfUpdatedVm(undefined, news)).toBe(news);
    expect(machineOfUpdatedVm({ machine: "101" }, news)).toBe(news);
  });

  test("a known machine is the program's: never overridden", () => {
    const news = { machine: "202", vm: "42" };
    expect(machineOfUpdatedVm(recorded, news)).toBe(news);
  });
});
