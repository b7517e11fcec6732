import { isHostErrorEcho } from "./hostErrorEcho";

/** What the SDK's servers print for a thrown error: console.error(`${e}: ${e.stack}`). */
const echoOf = (e: Error) => [`${e}: ${e.stack}`];

describe("a provider error is reported once, on its resource: the hosts' raw echo of it is recognized", () => {
  test("an Error or ApiError echoed with its stack trace", () => {
    expect(isHostErrorEcho(echoOf(new Error("vplatform: creating VirtualMachine 'web': POST /v4/vms: 500")))).toBe(true);
    const api = Object.assign(new Error("GET /v4/vms: 401 bad key: the platform refused the credentials"), { name: "ApiError" });
    api.stack = `ApiError: ${api.message}\n    at ApiClient.call (api-client.js:1:1)`;
    expect(isHostErrorEcho(echoOf(api))).toBe(true);
  });

  test("a multi-line message, and an error without frames", () => {
    expect(isHostErrorEcho(echoOf(new Error("line one\nline two")))).toBe(true);
    const bare = new Error("no frames");
    bare.stack = String(bare);
    expect(isHostErrorEcho(echoOf(bare))).toBe(true);
  });

  test("anything else passes: our own lines, other output, several arguments", () => {
    expect(isHostErrorEcho(["vplatform: the Pulumi engine (127.0.0.1:1) is gone; the provider process exits"])).toBe(false);
    expect(isHostErrorEcho(["Error: one: Error: two\n    at x"])).toBe(false);
    expect(isHostErrorEcho(["Error: x: Error: x", "more"])).toBe(false);
    expect(isHostErrorEcho([new Error("x")])).toBe(false);
  });
});
