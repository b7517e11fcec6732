/**
 * Replay of a recording (`vplatform-emulator replay FILE --target URL ...`): each recorded request is
 * sent, in order, to another emulator with that emulator's credentials (the recording holds none), and
 * its answer compared with the recorded one: status, then body (see jsonDiff.ts).
 */
import { readFileSync } from "node:fs";
import https from "node:https";
import { jsonRequest } from "../client/jsonRequest";
import { jsonDifferences } from "./jsonDiff";
import type { RecordedExchange } from "./recorder";

export interface ReplayTarget {
  url: string;
  /** An administrator API key of the target, sent for every request that was authenticated. */
  apiKey: string;
  /** PEM of the target's certificate authority. */
  ca?: string;
}

export interface ReplayDifference {
  seq: number;
  request: string;
  differences: string[];
}

/** The exchanges of a JSON-lines recording; a line that is not an exchange names its line number. */
export function readRecording(file: string): RecordedExchange[] {
  const lines = readFileSync(file, "utf8").split("\n");
  return lines.flatMap((line, index) => {
    if (line.trim() === "") return [];
    try {
      const exchange = JSON.parse(line) as RecordedExchange;
      if (typeof exchange.method === "string" && typeof exchange.url === "string" && typeof exchange.status === "number") return [exchange];
    } catch {
      // reported below
    }
    throw new Error(`${file}:${index + 1}: not a recorded exchange (a JSON object with method, url and status)`);
  });
}

/**
 * Sends each exchange at its recorded time after the first (`at`), not as fast as possible: a status read
 * recorded seconds after a power-on then finds the change as far along as it was (sent at once, half of an
 * ordinary session's status reads differed on power timing alone). An exchange whose predecessor answered late
 * is sent at once.
 */
export async function replay(
  exchanges: RecordedExchange[],
  target: ReplayTarget,
  ignore: ReadonlySet<string>,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<ReplayDifference[]> {
  const agent = new https.Agent({ ca: target.ca, keepAlive: true });
  const found: ReplayDifference[] = [];
  const recordedStart = exchanges.length ? Date.parse(exchanges[0].at) : 0;
  const started = Date.now();
  try {
    for (const exchange of exchanges) {
      const due = started + (Date.parse(exchange.at) - recordedStart);
      if (due > Date.now()) await sleep(due - Date.now());
      const reply = await jsonRequest({
        method: exchange.method,
        url: `${target.url}${exchange.url}`,
        agent,
        body: exchange.body,
        headers: exchange.auth === "none" ? {} : { authorization: `Bearer ${target.apiKey}` },
      });
      const differences =
        reply.status === exchange.status
          ? jsonDifferences(exchange.answer, reply.body, ignore)
          : [`status: ${exchange.status} ≠ ${reply.status}`];
      if (differences.length) found.push({ seq: exchange.seq, request: `${exchange.method} ${exchange.url}`, differences });
    }
  } finally {
    agent.destroy();
  }
  return found;
}
