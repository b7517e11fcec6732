// The fast form of `npm run bench -- --class-realistic=N` (bench/class/): the class scenario itself (up,
// roster, reset --all, destroy through `vplatform env`) at 2 copies and a time scale at which a clone takes
// seconds rather than the lab speed's 50 ms, so what the full form measures shows here too: the
// clones go through a tree (clones made from clones, several sources cloning at once, in the emulator's
// recorder) and the copies come out equal; and both resets, the stack's first too, cost their floor and one read more.
import * as path from "node:path";
import { findRepoRoot } from "../../env/local-stack";
import { type ClassMeasured, classFloor } from "../../bench/class/floor";
import { madeLine } from "../../bench/class/copies";

const COPIES = 2;
/** Half the base durations: a clone takes 2.5 s (50 ms at lab speed, 50 s at the bench's realistic ×10). */
const SCALE = 0.5;
const dist = path.join(findRepoRoot(), "dist", "bench", "class", "run.js");
let phases: ClassMeasured[];
const phase = (name: ClassMeasured["phase"]) => phases.find((p) => p.phase === name)!;

beforeAll(async () => {
  const { runClass } = require(dist) as typeof import("../../bench/class/run");
  const started = Date.now();
  phases = await runClass({ copies: COPIES, scale: SCALE, speed: `×${SCALE}` }, false);
  const up = phase("up");
  console.log(
    `class of ${COPIES} at ×${SCALE} in ${((Date.now() - started) / 1000).toFixed(0)} s: ` +
      `${phases.map((p) => `${p.phase} ${p.requests} requests, ${p.seconds.toFixed(0)} s`).join("; ")}; ` +
      madeLine({ readySeconds: up.readySeconds!, tree: up.tree!, differing: up.differing! }),
  );
}, 600_000);

describe("the stack's first reset, before any restore was seen", () => {
  test("expects its restores with power-on to take a clone plus a power-on, as the up saw them when it took the snapshots: its floor and at most one read more", () => {
    const first = phase("reset");
    expect(first.requests).toBeLessThanOrEqual(classFloor("reset", first).requests + 1);
  });
});

describe("a reset of a stack that was reset before", () => {
  test("reads its one poll near the duration the first reset's restores took (kept with the stack): its floor and at most one read more", () => {
    const again = phase("reset again");
    expect(again.requests).toBeLessThanOrEqual(classFloor("reset again", again).requests + 1);
  });
});

describe("the class at realistic speed, in small: a tree of clones, equal copies", () => {
  test("the up's clones went through a tree: clones made from clones, more than one source cloning at once", () => {
    const vms = COPIES * phase("up").vmsPerCopy;
    expect(phase("up").tree).toEqual({ clones: vms, fromClones: expect.any(Number), sourcesAtOnce: expect.any(Number) });
    expect(phase("up").tree!.fromClones).toBeGreaterThan(0);
    expect(phase("up").tree!.sourcesAtOnce).toBeGreaterThan(1);
  });

  test("every copy's VM is what copy 1's VM of the same template is: settings, drives and their content, NICs", () => {
    expect(phase("up").differing).toEqual([]);
  });

  test("each phase sends the actions of its floor: a clone, a power-on and a snapshot a VM up; a kill and a restore a VM reset", () => {
    const vms = COPIES * phase("up").vmsPerCopy;
    expect(phase("up").byTable["POST vm_actions"]).toBe(3 * vms);
    expect(phase("reset").byTable["POST vm_actions"]).toBe(2 * vms);
    expect(phase("reset again").byTable["POST vm_actions"]).toBe(2 * vms);
    expect(phase("roster").requests).toBe(2);
  });
});
