/**
 * The request recorder: every `/api` request and its answer as one JSON line (secrets redacted, see
 * redact.ts), appended to a file while recording is on (`--record FILE`, `PUT /_emulator/recorder`).
 * `vplatform-emulator replay FILE --target URL` sends a recording to another emulator (replay.ts).
 */
import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { redact, redactUrl } from "./redact";

/** How a request authenticated (never the credential itself): replay sends the target's own. */
export type AuthKind = "bearer" | "basic" | "session" | "none";

export interface RecordedExchange {
  seq: number;
  /** ISO time the request arrived. */
  at: string;
  method: string;
  url: string;
  auth: AuthKind;
  body?: unknown;
  status: number;
  answer?: unknown;
  ms: number;
}

export function authKind(headers: Record<string, unknown>): AuthKind {
  const authorization = String(headers.authorization ?? "");
  if (/^bearer /i.test(authorization)) return "bearer";
  if (/^basic /i.test(authorization)) return "basic";
  return headers["x-service-token"] !== undefined ? "session" : "none";
}

/** The recorded form of an exchange, secrets removed. */
export function recordedExchange(raw: Omit<RecordedExchange, "seq">, seq: number): RecordedExchange {
  const session = /^\/api\/sys\/tokens/.test(raw.url);
  return { seq, ...raw, url: redactUrl(raw.url), body: redact(raw.body), answer: redact(raw.answer, session) };
}

export class RequestRecorder {
  private fd: number | undefined;
  private path: string | undefined;
  private recorded = 0;

  /** Starts appending to `file` (created with its directory), stopping any recording first. */
  start(file: string): void {
    this.stop();
    const path = resolve(file);
    mkdirSync(dirname(path), { recursive: true });
    this.fd = openSync(path, "a");
    this.path = path;
    this.recorded = 0;
  }

  stop(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  get recording(): boolean {
    return this.fd !== undefined;
  }

  status(): { recording: boolean; file?: string; recorded: number } {
    return { recording: this.recording, file: this.path, recorded: this.recorded };
  }

  record(raw: Omit<RecordedExchange, "seq">): void {
    if (this.fd === undefined) return;
    this.recorded++;
    writeSync(this.fd, `${JSON.stringify(recordedExchange(raw, this.recorded))}\n`);
  }
}
