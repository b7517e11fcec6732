import {
  floor,
  inTransitions,
  labs,
  lifecycleRequests,
  type Measured,
  type Op,
  ratio,
  renderRows,
  sideBySideTables,
  variantLabel,
} from "./figures";
import { targetRows } from "./targets";

const measured = (op: Op, requests: number, extra: Partial<Measured> = {}): Measured => ({
  vms: 50,
  speed: "lab",
  variant: "default",
  parallel: 8,
  checkpoints: true,
  op,
  requests,
  seconds: 10,
  peakMiB: 200,
  ...extra,
});
const lifecycle = (requests: Record<Op, number>, extra: Partial<Measured> = {}): Measured[] =>
  (Object.keys(requests) as Op[]).map((op) => measured(op, requests[op], extra));

describe("the floor: the requests no client can avoid", () => {
  test("up costs six per VM and the vnet, refresh one GET per table, destroy three per VM and the vnet", () => {
    expect([floor("up", 50), floor("preview", 50), floor("refresh", 50), floor("grow", 50), floor("destroy", 50)]).toEqual([
      301, 0, 4, 50, 151,
    ]);
  });
});

describe("the ratio to the floor", () => {
  test("is requests over the floor", () => {
    expect(ratio(measured("up", 463))).toBeCloseTo(1.538, 3);
  });
  test("is 1 for a preview that sends nothing, and undefined for one that sends anything", () => {
    expect(ratio(measured("preview", 0))).toBe(1);
    expect(ratio(measured("preview", 3))).toBeUndefined();
  });
});

describe("wall time in transitions", () => {
  test("counts power-ons at a realistic speed", () => {
    expect(inTransitions({ seconds: 736, transitionMs: 20_000 })).toBeCloseTo(36.8);
  });
  test("is not given at lab speed, whose 20 ms transition is no yardstick", () => {
    expect(inTransitions({ seconds: 88, transitionMs: 20 })).toBeUndefined();
  });
});

describe("variant labels", () => {
  test("name the parallelism, a run without checkpoints, another backend, and a recorded baseline", () => {
    expect(variantLabel({ variant: "default", parallel: 8, checkpoints: true })).toBe("default (parallel 8)");
    expect(variantLabel({ variant: "env", parallel: 200, checkpoints: false, backend: "postgres" })).toBe(
      "env (parallel 200, no checkpoints, postgres)",
    );
    expect(variantLabel({ variant: "baseline", checkpoints: true, recorded: true })).toBe("baseline (recorded)");
  });
});

describe("a lab's lifecycle", () => {
  test("adds the requests of every operation", () => {
    const [lab] = labs(lifecycle({ up: 463, preview: 0, refresh: 47, grow: 50, destroy: 118 }));
    expect(lifecycleRequests(lab)).toBe(678);
  });
  test("is not given for a run that measured only some operations", () => {
    const [lab] = labs([measured("up", 463)]);
    expect(lifecycleRequests(lab)).toBeUndefined();
  });
});

describe("the side-by-side table", () => {
  const results = [
    ...lifecycle({ up: 463, preview: 0, refresh: 47, grow: 50, destroy: 118 }),
    ...lifecycle({ up: 435, preview: 0, refresh: 4, grow: 50, destroy: 105 }, { variant: "env", parallel: 200 }),
  ];
  const [table] = sideBySideTables(results);

  test("has one table per lab, each variant's columns beside the others", () => {
    expect(table.title).toBe("50 VMs, lab speed");
    expect(table.rows[0]).toEqual([
      "op",
      "floor",
      ...["default (parallel 8)", "env (parallel 200)"].flatMap((v) => [`${v}: requests`, "per VM", "× floor", "seconds"]),
    ]);
  });
  test("gives each operation's requests, per VM and ratio per variant", () => {
    expect(table.rows[1]).toEqual(["up", "301", "463", "9.3", "1.54×", "10.0", "435", "8.7", "1.45×", "10.0"]);
  });
  test("gives wall time in power-ons only for a lab at realistic speed", () => {
    const [realistic] = sideBySideTables([measured("up", 938, { speed: "×10", seconds: 736, transitionMs: 20_000 })]);
    expect(realistic.rows[0].at(-1)).toBe("× transition");
    expect(realistic.rows[1].at(-1)).toBe("36.8");
  });
  test("ends with the whole lifecycle and the VMs one key's hour covers", () => {
    expect(table.rows.at(-1)).toEqual(["lifecycle", "506", "678", "13.6", "73 VMs/key-hour", "", "594", "11.9", "84 VMs/key-hour", ""]);
  });
});

describe("rendering", () => {
  test("aligns columns, or writes a Markdown table", () => {
    const rows = [
      ["op", "requests"],
      ["up", "463"],
    ];
    expect(renderRows(rows, false)).toEqual(["op  requests", "up  463"]);
    expect(renderRows(rows, true)).toEqual(["| op | requests |", "| --- | --- |", "| up | 463 |"]);
  });
});

describe("the targets", () => {
  const met = (rows: string[][], target: string) => rows.filter((r) => r[0] === target).map((r) => r.at(-1));

  test("hold up to 1.3× the floor and refresh to 8 requests", () => {
    const rows = targetRows(lifecycle({ up: 463, preview: 0, refresh: 4, grow: 50, destroy: 118 }));
    expect(met(rows, "up ≤ 1.3× floor (50 and 200 VMs)")).toEqual(["NO"]);
    expect(met(rows, "refresh ≤ 8 requests")).toEqual(["yes"]);
  });
  test("do not hold recorded figures to them", () => {
    expect(targetRows([measured("up", 951, { variant: "baseline", recorded: true })])).toHaveLength(1);
  });
  test("compare 1000 VMs' lifecycle per VM with the same variant's 200 VMs, and cannot tell without it", () => {
    const ops = { up: 8000, preview: 0, refresh: 4, grow: 1000, destroy: 2000 };
    const thousand = lifecycle(ops, { vms: 1000 });
    const twoHundred = lifecycle({ up: 1300, preview: 0, refresh: 4, grow: 200, destroy: 400 }, { vms: 200 });
    expect(met(targetRows([...twoHundred, ...thousand]), "1000 VMs: lifecycle per VM ≤ 200 VMs'")).toEqual(["NO"]);
    expect(met(targetRows(thousand), "1000 VMs: lifecycle per VM ≤ 200 VMs'")).toEqual(["?"]);
  });
  test("hold 1000 VMs' up to 2 hours with the default backend only (no checkpoints, or PostgreSQL, is another question)", () => {
    const ops = { up: 8000, preview: 0, refresh: 4, grow: 1000, destroy: 2000 };
    const target = "1000 VMs: up within 2 hours (default backend)";
    expect(met(targetRows(lifecycle(ops, { vms: 1000, seconds: 7300 })), target)).toEqual(["NO"]);
    expect(met(targetRows(lifecycle(ops, { vms: 1000, seconds: 3600 })), target)).toEqual(["yes"]);
    expect(met(targetRows(lifecycle(ops, { vms: 1000, checkpoints: false })), target)).toEqual([]);
    expect(met(targetRows(lifecycle(ops, { vms: 1000, backend: "postgres" })), target)).toEqual([]);
  });
});
