/** What every `vplatform env` command shares: its exit codes and its two streams. */

/** Exit codes CI can branch on. */
export const EXIT = {
  ok: 0,
  /** The engine or the platform failed (the message says which resource and why). */
  error: 1,
  /** `drift`: the platform differs from the file. */
  drift: 2,
  /** The file or the arguments are invalid; nothing was sent. */
  invalid: 3,
} as const;

export interface Io {
  stdout(text: string): void;
  /** Engine progress and messages: stdout stays the report alone. */
  stderr(text: string): void;
}
