import { labsOutput } from "../test/env/labFixture";
import { chooseCopies, LabArgumentError, MASKED, maskSecrets, parseLabsOutput, resetTargets, snapshotsWaitDurations } from "./lab-outputs";

const labs = (copies = 3) => parseLabsOutput({ labs: labsOutput(copies) }, "dev");

describe("parseLabsOutput: the stack's labs output, as the contract shapes it", () => {
  test("keys come back as strings whatever JSON type the output has", () => {
    const vm = labs().course.copies["1"].vms.web;
    expect(vm).toEqual({ id: "111", machineKey: "211", name: "course-1-web", powerState: "running", snapshot: "311" });
  });

  test("a stack without the output is told to declare a lab and run up", () => {
    expect(() => parseLabsOutput({ other: 1 }, "dev")).toThrow(
      new LabArgumentError("stack 'dev' has no labs output: declare a lab in the file (labs:) and run `vplatform env up` first"),
    );
  });

  test("an output of another shape names the path that differs", () => {
    const broken = labsOutput(1) as any;
    delete broken.course.copies["1"].vms.db.machineKey;
    expect(() => parseLabsOutput({ labs: broken }, "dev")).toThrow(/labs\.course\.copies\.1\.vms\.db\.machineKey: /);
  });
});

describe("chooseCopies: --copy N, or every copy, of the stack's one lab or of --lab", () => {
  test("every copy in number order", () => {
    expect(chooseCopies(labs(12), {}).copies.map((c) => c.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  });

  test("--copy 3 chooses copy 3 alone", () => {
    expect(chooseCopies(labs(), { copy: 3 }).copies.map((c) => c.name)).toEqual(["course-3"]);
  });

  test("--copy 7 of a 5-copy lab names the copies there are", () => {
    expect(() => chooseCopies(labs(5), { copy: 7 })).toThrow("--copy 7: lab 'course' has copies 1 to 5; give one of them, or --all");
  });

  test("--lab names a lab of the stack; several labs need --lab", () => {
    const two = parseLabsOutput({ labs: { ...labsOutput(1), other: labsOutput(2).course } }, "dev");
    expect(() => chooseCopies(two, {})).toThrow("the stack has several labs (course, other): choose one with --lab <name>");
    expect(chooseCopies(two, { lab: "other" }).copies).toHaveLength(2);
    expect(() => chooseCopies(two, { lab: "nope" })).toThrow("--lab nope: the stack has no such lab (it has course, other)");
  });
});

describe("resetTargets: every VM of the chosen copies, refused as a whole when one has no snapshot", () => {
  test("each VM with its keys, snapshot and declared power state", () => {
    expect(resetTargets(chooseCopies(labs(), { copy: 2 }))).toEqual([
      { vm: { vmKey: "121", machineKey: "221", name: "course-2-web" }, snapshot: "321", powerState: "running" },
      { vm: { vmKey: "122", machineKey: "222", name: "course-2-db" }, snapshot: "322", powerState: "running" },
    ]);
  });

  test("copies whose VMs have no snapshot are refused, naming each copy and VM", () => {
    const output = labsOutput(3) as any;
    delete output.course.copies["2"].vms.db.snapshot;
    delete output.course.copies["3"].vms.web.snapshot;
    const chosen = chooseCopies(parseLabsOutput({ labs: output }, "dev"), {});
    expect(() => resetTargets(chosen)).toThrow(
      /lab 'course': these VMs have no reset snapshot, so nothing was reset: course-2: course-2-db, course-3: course-3-web\. Declare resetSnapshot/,
    );
  });

  test("a declared power state left out stays out (the VM comes back as it was)", () => {
    const output = labsOutput(1) as any;
    delete output.course.copies["1"].vms.web.powerState;
    expect(resetTargets(chooseCopies(parseLabsOutput({ labs: output }, "dev"), {}))[0]).not.toHaveProperty("powerState");
  });
});

describe("maskSecrets: API-key secrets become [secret], nothing else changes", () => {
  test("every copy's secret is masked", () => {
    const masked = maskSecrets(labs());
    expect(Object.values(masked.course.copies).map((c) => c.apiKey?.secret)).toEqual([MASKED, MASKED, MASKED]);
    expect({ ...masked.course.copies["1"], apiKey: undefined }).toEqual({ ...labs().course.copies["1"], apiKey: undefined });
  });
});

describe("snapshotsWaitDurations: what the up saw when it took the reset's snapshots, from the stack's state", () => {
  const target = (snapshot: string) => ({ vm: { vmKey: `v${snapshot}`, machineKey: `m${snapshot}`, name: "web" }, snapshot });
  const resources = [
    { id: "21", outputs: { name: "start", waitDurations: '{"clone":52000,"power-on":21000}' } },
    { id: "22", outputs: { name: "start", waitDurations: '{"clone":50500,"power-on":22000,"snapshot":30000}' } },
    { id: "23", outputs: { name: "start", waitDurations: '{"clone":1000,"power-on":1000}' } }, // another copy's, not reset
    { id: "24", outputs: { name: "start" } }, // taken by an older vplatform
    { id: "25", outputs: { name: "start", waitDurations: "{damaged" } },
    { outputs: { waitDurations: '{"clone":1}' } }, // a component: no id
  ];

  test("the quickest of each kind over the targets' snapshots only", () => {
    expect(snapshotsWaitDurations(resources, [target("21"), target("22"), target("24")])).toEqual({
      clone: 50_500,
      "power-on": 21_000,
      snapshot: 30_000,
    });
  });

  test("nothing when no target's snapshot records any (an older or a damaged record, or none in the state)", () => {
    expect(snapshotsWaitDurations(resources, [target("24"), target("25")])).toEqual({});
    expect(snapshotsWaitDurations([], [target("21")])).toEqual({});
  });
});
