/** What every `vplatform env` command shares: its exit codes (declared with the CLI's arguments) and its two streams. */
export { EXIT } from "./cli-args";

export interface Io {
  stdout(text: string): void;
  /** Engine progress and messages: stdout stays the report alone. */
  stderr(text: string): void;
}
