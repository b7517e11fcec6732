/**
 * One HTTP(S) delivery attempt: POST the message with the given headers in
 * order, wait at most `timeoutMs` (connection, TLS and the whole response),
 * and classify the outcome. Only a 2xx answer counts as delivered.
 */
import { request as httpRequest, type ClientRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import type { HeaderList } from "./headers";

export interface OutgoingRequest {
  url: string;
  headers: HeaderList;
  body: string;
  timeoutMs: number;
  /** Accept any server certificate (self-signed receivers). */
  allowInsecure: boolean;
  /** Aborts the attempt when the emulator closes. */
  signal: AbortSignal;
}

export interface AttemptOutcome {
  delivered: boolean;
  /** HTTP status of the answer; absent when there was none. */
  statusCode?: number;
  /** For the delivery log: `HTTP 200`, `HTTP 500: <start of body>`, `no response within 3 s`, `request failed: ECONNREFUSED`. */
  info: string;
}

/** Bytes of an error answer kept for `status_info`. */
const INFO_BODY_BYTES = 200;

export function sendOnce(outgoing: OutgoingRequest): Promise<AttemptOutcome> {
  return new Promise((resolve) => {
    const url = new URL(outgoing.url);
    const body = Buffer.from(outgoing.body, "utf8");
    // The array form keeps the configured order (an object would not let two headers share a name either)
    // but makes Node add nothing: Host and the real Content-Length are ours to send.
    const configured = outgoing.headers.filter(([name]) => !["host", "content-length"].includes(name.toLowerCase()));
    const headers = ["Host", url.host, ...configured.flat(), "Content-Length", String(body.length)];
    const options = { method: "POST", headers, signal: outgoing.signal };
    let settled = false;
    let timedOut = false;
    const finish = (outcome: AttemptOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const failure = (info: string): AttemptOutcome => ({
      delivered: false,
      info: timedOut ? `no response within ${outgoing.timeoutMs / 1000} s` : info,
    });
    const onResponse = (response: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      response.on("data", (chunk: Buffer) => {
        if (kept < INFO_BODY_BYTES) chunks.push(chunk);
        kept += chunk.length;
      });
      response.on("end", () => {
        const statusCode = response.statusCode ?? 0;
        const delivered = statusCode >= 200 && statusCode < 300;
        const excerpt = Buffer.concat(chunks).toString("utf8").slice(0, INFO_BODY_BYTES).trim();
        finish({ delivered, statusCode, info: `HTTP ${statusCode}${!delivered && excerpt ? `: ${excerpt}` : ""}` });
      });
      response.on("error", () => finish(failure("response interrupted")));
    };
    const req: ClientRequest =
      url.protocol === "https:"
        ? httpsRequest(url, { ...options, rejectUnauthorized: !outgoing.allowInsecure }, onResponse)
        : httpRequest(url, options, onResponse);
    const timer = setTimeout(() => {
      timedOut = true;
      req.destroy();
    }, outgoing.timeoutMs);
    req.on("error", (error: NodeJS.ErrnoException) => finish(failure(`request failed: ${error.code ?? error.message}`)));
    // Settles an attempt whose connection closed without an answer or an error event.
    req.on("close", () => finish(failure("connection closed without an answer")));
    req.end(body);
  });
}
