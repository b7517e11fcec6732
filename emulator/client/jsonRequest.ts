/**
 * One HTTPS request with a JSON body, answered as status, headers, parsed body and raw text.
 * The emulator's own bench and every test that talks to an emulator over real HTTPS use it;
 * the provider has its own client (provider/client) and never loads this.
 */
import https from "node:https";
import type { IncomingHttpHeaders } from "node:http";

export interface JsonReply {
  status: number;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body, the raw text when it is not JSON, undefined when empty. */
  // biome-ignore lint/suspicious/noExplicitAny: the answer of any endpoint: the caller reads the fields it expects
  body: any;
  text: string;
}

export interface JsonRequest {
  method: string;
  url: string;
  agent?: https.Agent;
  headers?: Record<string, string>;
  /** Serialised as JSON; `raw` is sent as it is instead. */
  body?: unknown;
  raw?: string;
}

export function jsonRequest({ method, url, agent, headers = {}, body, raw }: JsonRequest): Promise<JsonReply> {
  const payload = raw ?? (body === undefined ? undefined : JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = https.request(
      url,
      {
        method,
        agent,
        headers: { accept: "application/json", ...(payload !== undefined ? { "content-type": "application/json" } : {}), ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parseOrText(text), text });
        });
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

function parseOrText(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
