import * as https from "node:https";
import * as net from "node:net";
import type { IncomingMessage, ServerResponse } from "node:http";
import { generate } from "selfsigned";

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

/** What the server does with one request: answer, or drop the connection after reading it, or never answer. */
export type Reply = { status: number; body?: unknown; headers?: Record<string, string> } | { drop: true } | { hang: true };

export interface TestServer {
  url: string;
  caCert: string;
  seen: SeenRequest[];
  /** TCP connections accepted so far. */
  connections: number;
  openConnections(): Promise<number>;
  close(): Promise<void>;
}

let certificate: Promise<{ cert: string; key: string }> | undefined;
/** One self-signed certificate for 127.0.0.1 per test file. */
function testCertificate() {
  certificate ??= generate([{ name: "commonName", value: "127.0.0.1" }], {
    keyType: "ec",
    curve: "P-256",
    days: 2,
    extensions: [
      { name: "basicConstraints", cA: true },
      { name: "subjectAltName", altNames: [{ type: 7, ip: "127.0.0.1" }] },
    ],
  } as never).then((p) => ({ cert: p.cert, key: p.private }));
  return certificate;
}

/** An HTTPS server on an ephemeral port; `reply` decides each answer from the request and its index. */
export async function startTestServer(reply: (req: SeenRequest, index: number) => Reply): Promise<TestServer> {
  const { cert, key } = await testCertificate();
  const seen: SeenRequest[] = [];
  const server = https.createServer({ cert, key }, (req: IncomingMessage, res: ServerResponse) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const request = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body };
      seen.push(request);
      const r = reply(request, seen.length - 1);
      if ("drop" in r) return void req.socket.destroy();
      if ("hang" in r) return;
      res.writeHead(r.status, { "content-type": "application/json", ...r.headers });
      res.end(r.body === undefined ? "" : typeof r.body === "string" ? r.body : JSON.stringify(r.body));
    });
  });
  const state = { connections: 0 };
  server.on("connection", () => state.connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    caCert: cert,
    seen,
    get connections() {
      return state.connections;
    },
    openConnections: () => new Promise((resolve, reject) => server.getConnections((err, n) => (err ? reject(err) : resolve(n)))),
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** A TCP server that accepts and at once resets every connection: the request is never written. */
export async function startResettingServer(): Promise<{ url: string; connections: () => number; close(): Promise<void> }> {
  let count = 0;
  const server = net.createServer((socket) => {
    count++;
    socket.resetAndDestroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return { url: `https://127.0.0.1:${port}`, connections: () => count, close: () => new Promise((r) => server.close(() => r())) };
}

/** An address where nothing listens (a port just released). */
export async function closedPortUrl(): Promise<string> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  return `https://127.0.0.1:${port}`;
}
