/**
 * A local HTTP(S) endpoint for the delivery tests (127.0.0.1, ephemeral
 * port): it records every request (raw headers keep their order) and answers
 * each with the next planned status, or never answers ("stall"). The
 * provider's and the end-to-end tests start it with a self-signed
 * certificate (`startSelfSigned`), which a webhook reaches with allow-insecure.
 */
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { generate } from "selfsigned";

export interface ReceivedRequest {
  method: string;
  path: string;
  /** Name/value pairs in the order they arrived. */
  headers: [string, string][];
  body: string;
  /** When it arrived (ms since the epoch). */
  at: number;
}

export type PlannedAnswer = number | "stall";

export class Receiver {
  readonly received: ReceivedRequest[] = [];
  /** Answers for the next requests, in order; afterwards every request gets 200. */
  readonly plan: PlannedAnswer[] = [];
  /** Requests whose connection closed before an answer. */
  abandoned = 0;

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(tls?: { cert: string; key: string }): Promise<Receiver> {
    let receiver: Receiver | undefined;
    const handler = (req: IncomingMessage, res: ServerResponse) => receiver!.handle(req, res);
    const server = tls ? createHttpsServer(tls, handler) : createHttpServer(handler);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    receiver = new Receiver(server, `${tls ? "https" : "http"}://127.0.0.1:${port}/hook?source=emulator`);
    return receiver;
  }

  /** HTTPS with a certificate made now for 127.0.0.1 (self-signed: senders must accept it or trust `cert`). */
  static async startSelfSigned(): Promise<Receiver & { cert: string }> {
    const pems = await generate([{ name: "commonName", value: "127.0.0.1" }], {
      keyType: "ec",
      curve: "P-256",
      days: 1,
      extensions: [{ name: "subjectAltName", altNames: [{ type: 7, ip: "127.0.0.1" }] }],
    } as never);
    return Object.assign(await Receiver.start({ cert: pems.cert, key: pems.private }), { cert: pems.cert });
  }

  /** Resolves with the requests once `count` have arrived; fails after `timeoutMs`. */
  async requests(count: number, timeoutMs = 10_000): Promise<ReceivedRequest[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.received.length < count) {
      if (Date.now() > deadline) throw new Error(`the receiver got ${this.received.length} of ${count} requests in ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return this.received.slice(0, count);
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const headers: [string, string][] = [];
      for (let i = 0; i < req.rawHeaders.length; i += 2) headers.push([req.rawHeaders[i], req.rawHeaders[i + 1]]);
      const body = Buffer.concat(chunks).toString("utf8");
      this.received.push({ method: req.method ?? "", path: req.url ?? "", headers, body, at: Date.now() });
      const answer = this.plan.shift() ?? 200;
      if (answer === "stall") {
        res.on("close", () => this.abandoned++);
        return;
      }
      res.writeHead(answer, { "content-type": "text/plain" }).end(answer < 300 ? "ok" : `failure ${answer}`);
    });
  }

  header(request: ReceivedRequest, name: string): string | undefined {
    return request.headers.find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1];
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
