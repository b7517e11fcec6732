import { CLASS_PHASES, type ClassMeasured, type ClassPhase, HOUR_BUDGET, classFloor, classRows, hourVerdict } from "./floor";

const CLASS = { copies: 30, vmsPerCopy: 3 };

const measured = (phase: ClassPhase, requests: number, extra: Partial<ClassMeasured> = {}): ClassMeasured => ({
  ...CLASS,
  phase,
  speed: "lab",
  parallel: 32,
  requests,
  byTable: {},
  seconds: 1,
  ...extra,
});

describe("the class floor", () => {
  test("grows by the same count per VM and per copy, whatever the class's size (below 50 VMs: see the joined reads)", () => {
    for (const phase of CLASS_PHASES) {
      const at = (copies: number, vmsPerCopy: number) => classFloor(phase, { copies, vmsPerCopy }).requests;
      // One more copy costs the same whether it is the 2nd or the 16th.
      expect(at(16, 3) - at(15, 3)).toBe(at(2, 3) - at(1, 3));
      // One more VM per copy costs the same per copy.
      expect(at(10, 4) - at(10, 3)).toBe(at(10, 3) - at(10, 2));
    }
  });

  test("what an answer lacks (a user's identity, a snapshot's key) is read for the whole class, one GET per 100 rows", () => {
    const up = (copies: number, vmsPerCopy: number) => classFloor("up", { copies, vmsPerCopy }).requests;
    const perRow = (copies: number, vmsPerCopy: number) => 2 + 5 * copies + 6 * copies * vmsPerCopy + 1;
    expect(up(30, 3) - perRow(30, 3)).toBe(2); // 30 identities, 90 snapshot keys
    expect(up(34, 3) - perRow(34, 3)).toBe(3); // 102 snapshot keys: two GETs
    expect(up(1, 1) - perRow(1, 1)).toBe(2);
  });

  test("a roster costs two lists in all; a reset two requests a VM and a couple of reads", () => {
    expect(classFloor("roster", CLASS).requests).toBe(classFloor("roster", { copies: 1, vmsPerCopy: 1 }).requests);
    expect(classFloor("roster", CLASS).requests).toBe(2);
    const perVm = classFloor("reset", { copies: 10, vmsPerCopy: 4 }).requests - classFloor("reset", { copies: 10, vmsPerCopy: 3 }).requests;
    expect(perVm).toBe(2 * 10);
  });

  test("a reset reads the hardware of each VM and of its snapshot joined, 100 machines a GET: two GETs of each past 50 VMs", () => {
    const reset = (vms: number) => classFloor("reset", { copies: vms, vmsPerCopy: 1 }).requests;
    expect(reset(9)).toBe(2 * 9 + 2 + 3);
    expect(reset(50)).toBe(2 * 50 + 2 + 3);
    expect(reset(51)).toBe(2 * 51 + 2 + 5);
    expect(classFloor("reset", CLASS).requests).toBe(2 * 90 + 2 + 1 + 2 * 2);
  });

  test("a reset again has a reset's floor", () => {
    expect(classFloor("reset again", CLASS)).toEqual(classFloor("reset", CLASS));
  });

  test("an up and a reset of 30 copies × 3 VMs fit one API key's hour at the floor", () => {
    expect(classFloor("up", CLASS).requests + classFloor("reset", CLASS).requests).toBeLessThanOrEqual(HOUR_BUDGET);
  });
});

describe("the hour's verdict", () => {
  test("says by how much an up and a reset overshoot the hour, and that the floor fits", () => {
    const [line] = hourVerdict([measured("up", 900), measured("reset", 300)]);
    expect(line).toContain("900 + 300 = 1200");
    expect(line).toContain(`does NOT fit: ${1200 - HOUR_BUDGET} over`);
    const floor = classFloor("up", CLASS).requests + classFloor("reset", CLASS).requests;
    expect(line).toContain(`the floor ${floor} fits (${HOUR_BUDGET - floor} to spare)`);
  });

  test("one line per speed that measured both an up and a reset", () => {
    const lines = hourVerdict([measured("up", 700), measured("reset", 200), measured("up", 700, { speed: "×10" })]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^lab, 30 copies × 3 VMs: .* fits \(100 to spare\)/);
  });
});

describe("the table", () => {
  test("per phase its requests per VM and over the floor; provider memory only where the engine ran", () => {
    const [head, up, roster] = classRows([measured("up", 900, { peakMiB: 200 }), measured("roster", 2)]);
    const col = (name: string) => head.indexOf(name);
    expect(up[col("per VM")]).toBe((900 / 90).toFixed(2));
    expect(up[col("× floor")]).toBe((900 / classFloor("up", CLASS).requests).toFixed(2));
    expect(up[col("provider MiB")]).toBe("200");
    expect(roster[col("× floor")]).toBe("1.00");
    expect(roster[col("provider MiB")]).toBe("(CLI process)");
  });
});
