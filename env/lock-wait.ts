/**
 * Two pipelines on one stack: the engine's backend lock lets one update run and
 * refuses the other at once. `--wait-for-lock <seconds>` retries the refused
 * command until the lock is free or the time is up; without it the refusal is
 * reported as what it is, with what to do.
 */

/** How often a waiting command asks the backend again. */
export const LOCK_RETRY_SECONDS = 2;

/** The Automation API's error for a stack another update holds (Pulumi Cloud's 409, a DIY backend's lock). */
export const isStackLocked = (err: unknown): boolean => err instanceof Error && err.name === "ConcurrentUpdateError";

/** Where the stack lives, for the command that removes a dead update's lock. */
export interface StackHome {
  project: string;
  /** The backend URL the CLI gave the engine (a DIY backend: file://, s3://, postgres://, ...), if any. */
  backendUrl?: string;
  /** Whether the caller's own environment sets PULUMI_BACKEND_URL (then the command needs no prefix). */
  backendUrlInEnv: boolean;
}

/**
 * The `pulumi cancel` a person can paste: run outside the stack's project, it needs the stack's full name
 * (`organization/<project>/<stack>` on a DIY backend, `<org>/<project>/<stack>` on Pulumi Cloud) and, for
 * the CLI's own local backend, the backend URL the CLI chose.
 */
export function cancelCommand(stack: string, home: StackHome): string {
  const diy = home.backendUrl !== undefined && !/^https?:\/\//.test(home.backendUrl);
  const fullName = stack.includes("/") ? stack : `${diy ? "organization" : "<your-org>"}/${home.project}/${stack}`;
  const prefix = diy && !home.backendUrlInEnv ? `PULUMI_BACKEND_URL=${home.backendUrl} ` : "";
  return `${prefix}pulumi cancel --yes --stack ${fullName}`;
}

/** The refusal, naming the way out. */
export function stackLockedMessage(stack: string, waitedSeconds: number, home: StackHome): string {
  const waited = waitedSeconds > 0 ? `, still after waiting ${waitedSeconds} s` : "";
  return (
    `stack '${stack}' is locked by another update (another pipeline or person is running up, refresh or destroy on it${waited}). ` +
    `Run again when it has finished, or pass --wait-for-lock <seconds> to wait for it; ` +
    `if no update is running (one was killed), \`${cancelCommand(stack, home)}\` removes its lock.`
  );
}

export class StackLockedError extends Error {}

export interface LockWait {
  stack: string;
  home: StackHome;
  /** 0: fail at once. */
  waitSeconds: number;
  /** Told before each wait. */
  onWait(message: string): void;
  sleep?(seconds: number): Promise<void>;
  now?(): number;
}

/** Runs `attempt`, again while the stack is locked and the wait allows; a lock still held ends in StackLockedError. */
export async function waitingForLock<T>(attempt: () => Promise<T>, opts: LockWait): Promise<T> {
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? ((s: number) => new Promise<void>((resolve) => setTimeout(resolve, s * 1000)));
  const started = now();
  for (;;) {
    try {
      return await attempt();
    } catch (err) {
      if (!isStackLocked(err)) throw err;
      const waited = Math.round((now() - started) / 1000);
      if (waited + LOCK_RETRY_SECONDS > opts.waitSeconds) throw new StackLockedError(stackLockedMessage(opts.stack, waited, opts.home));
      opts.onWait(`stack '${opts.stack}' is locked by another update; waiting (${waited} of ${opts.waitSeconds} s)`);
      await sleep(LOCK_RETRY_SECONDS);
    }
  }
}
