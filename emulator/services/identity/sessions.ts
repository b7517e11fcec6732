/**
 * Session tokens from `POST /api/sys/tokens`. A token expires after
 * `idleSeconds` without use (default 30 minutes; real time, not scaled);
 * `DELETE /api/sys/tokens/<token>` logs out. Tokens live in memory only.
 */
import { randomBytes } from "node:crypto";

export const SESSION_IDLE_SECONDS = 1800;

interface Session {
  user: string;
  lastUsed: number;
}

export class SessionStore {
  private readonly sessions = new Map<string, Session>();
  private rowCounter = 0;

  constructor(
    private readonly now: () => number = Date.now,
    readonly idleSeconds = SESSION_IDLE_SECONDS,
  ) {}

  create(user: string): { token: string; row: number } {
    const token = randomBytes(24).toString("hex");
    this.sessions.set(token, { user, lastUsed: this.now() });
    return { token, row: ++this.rowCounter };
  }

  /** The session's user, refreshing its idle timer; undefined when unknown or idle too long. */
  use(token: string): string | undefined {
    const session = this.sessions.get(token);
    if (!session) return undefined;
    if (this.now() - session.lastUsed > this.idleSeconds * 1000) {
      this.sessions.delete(token);
      return undefined;
    }
    session.lastUsed = this.now();
    return session.user;
  }

  delete(token: string): boolean {
    return this.sessions.delete(token);
  }
}
