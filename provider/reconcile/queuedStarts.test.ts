import { Session } from "./session";
import type { PlatformApi } from "./platform";
import { type Slots, inEngineSlot, parallelismOf, queuedStartsHint, waitingForStart } from "./queuedStarts";

const slots = (s: Partial<Slots>): Slots => ({ operating: 8, peak: 8, starting: 8, started: 17, told: false, ...s });

describe("queuedStartsHint: says when VM starts queue behind the engine's parallelism", () => {
  const unknown = parallelismOf({});
  test("every slot waits for a start and more starts came than twice the slots: the hint names the command", () => {
    expect(queuedStartsHint(slots({}), unknown)).toMatch(/pulumi up --parallel N.*PULUMI_PARALLEL=N/);
  });

  test("a known parallelism that the busy slots did not reach is no queue behind it (a busy machine ends operations early)", () => {
    expect(
      queuedStartsHint(slots({ operating: 3, peak: 3, starting: 3, started: 20 }), parallelismOf({ VPLATFORM_ENGINE_PARALLEL: "80" })),
    ).toBeUndefined();
    expect(queuedStartsHint(slots({}), parallelismOf({ PULUMI_PARALLEL: "64" }))).toBeUndefined();
    expect(queuedStartsHint(slots({}), parallelismOf({ PULUMI_PARALLEL: "8" }))).toMatch(/pulumi up --parallel N/);
  });

  test("under vplatform env, reached: the hint names the CLI's own option", () => {
    expect(queuedStartsHint(slots({}), parallelismOf({ VPLATFORM_ENGINE_PARALLEL: "8" }))).toMatch(
      /Run `vplatform env up --parallel N` with N/,
    );
  });

  test("a slot doing something else, few starts, or a hint already given: nothing", () => {
    expect(queuedStartsHint(slots({ starting: 7 }), unknown)).toBeUndefined();
    expect(queuedStartsHint(slots({ operating: 1, starting: 1 }), unknown)).toBeUndefined();
    expect(queuedStartsHint(slots({ started: 16 }), unknown)).toBeUndefined();
    expect(queuedStartsHint(slots({ told: true }), unknown)).toBeUndefined();
    expect(queuedStartsHint(slots({ operating: 0, peak: 0, starting: 0, started: 0 }), unknown)).toBeUndefined();
  });
});

describe("waitingForStart: the hint is given once per session, during the run", () => {
  const session = () => new Session({} as PlatformApi);
  /** `count` operations in engine slots at once, each waiting for a start until let go; resolves when all are done. */
  const startTogether = async (api: Session, count: number, lines: string[]) => {
    const opens: (() => void)[] = [];
    const ops = Array.from({ length: count }, () =>
      inEngineSlot(api, () =>
        waitingForStart(
          api,
          () => new Promise<void>((r) => opens.push(r)),
          (l) => lines.push(l),
        ),
      ),
    );
    for (const open of opens) open();
    await Promise.all(ops);
  };

  test("two slots, each starting VM after VM: said once, when both wait and more than four starts came", async () => {
    const api = session();
    const lines: string[] = [];
    for (let round = 0; round < 4; round++) {
      await startTogether(api, 2, lines);
      expect(lines).toHaveLength(round < 2 ? 0 : 1);
    }
  });

  test("starts that all fit in the slots at once: nothing said", async () => {
    const api = session();
    const lines: string[] = [];
    await startTogether(api, 20, lines);
    expect(lines).toEqual([]);
  });
});
