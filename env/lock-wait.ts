/**
 * Two pipelines on one stack: the engine's backend lock lets one update run and
 * refuses the other at once. `--wait-for-lock <seconds>` retries the refused
 * command until the lock is free or the time is up; without it the refusal is
 * reported as what it is, with what to do.
 */
import * as os from "node:os";

/** How often a waiting command asks the backend again. */
export const LOCK_RETRY_SECONDS = 2;
/** How often a waiting command says it is still waiting. */
export const LOCK_PROGRESS_SECONDS = 30;

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
  // Quoted: a file backend's URL carries a query (`?metadata=skip`), a pattern to the shell.
  const prefix = diy && !home.backendUrlInEnv ? `PULUMI_BACKEND_URL='${home.backendUrl}' ` : "";
  return `${prefix}pulumi cancel --yes --stack ${fullName}`;
}

/** This machine, to tell a lock whose holder is gone. */
export interface Host {
  name: string;
  running(pid: number): boolean;
}

const THIS_HOST: Host = {
  name: os.hostname(),
  running: (pid) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === "EPERM";
    }
  },
};

/**
 * Who holds the lock, as the engine quotes the lock file of a DIY backend (pkg/backend/diy/lock.go:
 * `<lock file>: created by <user>@<host> (pid <n>) at <RFC 3339 time>`, one line per lock); Pulumi Cloud's
 * refusal (409) names no one.
 */
export function lockHolders(err: unknown, host: Host = THIS_HOST): string {
  const text = err instanceof Error ? err.message : String(err);
  const holders = [...text.matchAll(/created by (\S+) \(pid (\d+)\) at (\S+)/g)].map(([, who, pid, at]) => {
    const gone = who.split("@").pop() === host.name && !host.running(Number(pid));
    // Only said, never acted on: another machine or container may carry the same host name.
    return `${who}, pid ${pid}, since ${at}${gone ? ` (stale: no process ${pid} runs on this host ${host.name}, unless another machine is named so)` : ""}`;
  });
  return holders.length ? `held by ${[...new Set(holders)].join("; ")}` : "the backend does not say by whom";
}

/** The refusal, naming the way out. */
export function stackLockedMessage(stack: string, waitedSeconds: number, home: StackHome, holders?: string): string {
  const waited = waitedSeconds > 0 ? `, still after waiting ${waitedSeconds} s` : "";
  const held = holders ? `; ${holders}` : "";
  return (
    `stack '${stack}' is locked by another update (another pipeline or person is running up, refresh or destroy on it${held}${waited}). ` +
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
  /** Told when the wait starts (who holds the lock), every LOCK_PROGRESS_SECONDS while it lasts, and how it ended. */
  onWait(message: string): void;
  sleep?(seconds: number): Promise<void>;
  now?(): number;
}

/**
 * Runs `attempt`, again while the stack is locked and the wait allows; a lock still held ends in StackLockedError.
 * A wait is never silent: who holds the lock when it starts, a line every LOCK_PROGRESS_SECONDS, and its end.
 */
export async function waitingForLock<T>(attempt: () => Promise<T>, opts: LockWait): Promise<T> {
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? ((s: number) => new Promise<void>((resolve) => setTimeout(resolve, s * 1000)));
  const started = now();
  const waitedSeconds = () => Math.round((now() - started) / 1000);
  /** When the wait was last told (seconds into it); undefined: no wait yet. */
  let toldAt: number | undefined;
  /** How long the command had waited when its last attempt started. */
  let waitedBeforeAttempt = 0;
  for (;;) {
    try {
      const result = await attempt();
      if (toldAt !== undefined) opts.onWait(`stack '${opts.stack}': got the lock after waiting ${waitedBeforeAttempt} s`);
      return result;
    } catch (err) {
      if (!isStackLocked(err)) throw err;
      const waited = waitedSeconds();
      const holders = lockHolders(err);
      if (waited + LOCK_RETRY_SECONDS > opts.waitSeconds) {
        if (toldAt !== undefined) opts.onWait(`stack '${opts.stack}': gave up waiting for the lock after ${waited} s`);
        throw new StackLockedError(stackLockedMessage(opts.stack, waited, opts.home, holders));
      }
      if (toldAt === undefined) {
        opts.onWait(`stack '${opts.stack}' is locked by another update; waiting (${waited} of ${opts.waitSeconds} s); ${holders}`);
        toldAt = waited;
      } else if (waited - toldAt >= LOCK_PROGRESS_SECONDS) {
        opts.onWait(`stack '${opts.stack}' is still locked by another update; waiting (${waited} of ${opts.waitSeconds} s); ${holders}`);
        toldAt = waited;
      }
      await sleep(LOCK_RETRY_SECONDS);
      waitedBeforeAttempt = waitedSeconds();
    }
  }
}
