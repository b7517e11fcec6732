import { perSession, type Session } from "./session";

/** What the session sees of the engine's slots: its operations in flight and the VM starts they wait for. */
export interface Slots {
  /** Creates, updates and deletes running now, and the most seen at once (the engine's parallelism, as far as it shows). */
  operating: number;
  peak: number;
  /** VM starts being waited for now, and since the session began. */
  starting: number;
  started: number;
  told: boolean;
}

const slotsOf = perSession<Slots>(() => ({ operating: 0, peak: 0, starting: 0, started: 0, told: false }));

/** What is known of the engine's parallelism, from the environment the engine passed on, and how to raise it. */
export interface Parallelism {
  /** `vplatform env`'s (VPLATFORM_ENGINE_PARALLEL, its --parallel) or PULUMI_PARALLEL; unknown with a bare --parallel. */
  parallel?: number;
  /** The command that raises it. */
  raise: string;
}

/** Set by `vplatform env` in its engine's environment: the parallelism it runs the engine with. */
export const ENGINE_PARALLEL_VARIABLE = "VPLATFORM_ENGINE_PARALLEL";

export function parallelismOf(env: NodeJS.ProcessEnv = process.env): Parallelism {
  const fromCli = Number(env[ENGINE_PARALLEL_VARIABLE]);
  if (fromCli > 0) return { parallel: fromCli, raise: "`vplatform env up --parallel N`" };
  const fromEnv = Number(env.PULUMI_PARALLEL);
  return { ...(fromEnv > 0 ? { parallel: fromEnv } : {}), raise: "`pulumi up --parallel N` (or set PULUMI_PARALLEL=N)" };
}

/**
 * The hint, when VM starts queue behind the engine's parallelism: every slot
 * it gives (as many as were ever busy at once) is waiting for a start, and more starts came than twice the slots
 * (so more are queued behind them). When the parallelism is known, fewer slots busy than it is no queue behind it:
 * on a busy machine operations end before the next ones begin (`vplatform env` at 80 said "all 3" of them).
 * A start takes tens of seconds on a real platform; waits that overlap cost no more requests (one poller reads them all).
 */
export function queuedStartsHint(s: Slots, known: Parallelism = parallelismOf()): string | undefined {
  if (s.told || s.peak === 0 || s.operating < s.peak || s.starting < s.operating || s.started <= 2 * s.peak) return undefined;
  if (known.parallel !== undefined && s.peak < known.parallel) return undefined;
  return (
    `vplatform: VM starts are queued behind the engine's parallelism: all ${s.operating} of its parallel operations ` +
    `are waiting for a VM to start, one batch after another. Run ${known.raise} with N about 4 × the VMs ` +
    "so the starts overlap; waits that overlap cost no extra requests"
  );
}

/** Runs an operation the engine gave a slot (create, update, delete). */
export async function inEngineSlot<T>(session: Session, work: () => Promise<T>): Promise<T> {
  const s = slotsOf(session);
  s.operating++;
  s.peak = Math.max(s.peak, s.operating);
  try {
    return await work();
  } finally {
    s.operating--;
  }
}

/** Waits for a VM to start; says once, during the run, when such waits queue behind the engine's parallelism. */
export async function waitingForStart<T>(session: Session, wait: () => Promise<T>, log: (line: string) => void): Promise<T> {
  const s = slotsOf(session);
  s.starting++;
  s.started++;
  const hint = queuedStartsHint(s);
  if (hint) {
    s.told = true;
    log(hint);
  }
  try {
    return await wait();
  } finally {
    s.starting--;
  }
}
