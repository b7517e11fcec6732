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

/**
 * The hint, when VM starts queue behind the engine's parallelism: every slot
 * it gives (as many as were ever busy at once) is waiting for a start, and more starts came than twice the slots
 * (so more are queued behind them). A start takes tens of seconds on a real
 * platform; waits that overlap cost no more requests (one poller reads them all).
 */
export function queuedStartsHint(s: Slots): string | undefined {
  if (s.told || s.peak === 0 || s.operating < s.peak || s.starting < s.operating || s.started <= 2 * s.peak) return undefined;
  return (
    `vplatform: VM starts are queued behind the engine's parallelism: all ${s.operating} of its parallel operations ` +
    "are waiting for a VM to start, one batch after another. Run `pulumi up --parallel N` with N about 4 × the VMs " +
    "(or set PULUMI_PARALLEL=N) so the starts overlap; waits that overlap cost no extra requests"
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
