import type { PlatformApi } from "../../reconcile/platform";
import { SessionRegistry } from "./sessionRegistry";

describe("the dynamic door's session (its API client) across configure calls", () => {
  const built: { endpoint: string | undefined; closed: number }[] = [];
  const registry = () =>
    new SessionRegistry((get) => {
      const client = { endpoint: get("vplatform:endpoint"), closed: 0 };
      built.push(client);
      return { close: () => void client.closed++ } as unknown as PlatformApi;
    });
  beforeEach(() => void (built.length = 0));
  const config = (endpoint: string) => (key: string) => ({ "vplatform:endpoint": endpoint, "vplatform:apiKey": "k" })[key];

  test("is kept when the engine configures again with the same settings (once per resource type)", () => {
    const sessions = registry();
    sessions.configure("Drive", config("https://a"));
    const first = sessions.sessionOf("Drive");
    sessions.configure("Drive", config("https://a"));
    sessions.configure("Nic", config("https://a"));
    expect(sessions.sessionOf("Drive")).toBe(first);
    expect(sessions.sessionOf("Nic")).toBe(first);
    expect(built).toEqual([{ endpoint: "https://a", closed: 0 }]);
  });

  test("is closed (its keep-alive connections ended) when other settings replace it", () => {
    const sessions = registry();
    sessions.configure("Drive", config("https://a"));
    sessions.configure("Drive", config("https://b"));
    expect(built).toEqual([
      { endpoint: "https://a", closed: 1 },
      { endpoint: "https://b", closed: 0 },
    ]);
  });

  test("types configured for two sites each get their own session", () => {
    const sessions = registry();
    sessions.configure("Drive", config("https://a"));
    sessions.configure("Nic", config("https://b"));
    expect(sessions.sessionOf("Drive")).not.toBe(sessions.sessionOf("Nic"));
    expect(built.map((b) => b.closed)).toEqual([0, 0]);
  });

  test("a type used before it was configured is an internal error that names it", () => {
    expect(() => registry().sessionOf("Vnet")).toThrow("Vnet was used before the engine configured it");
  });
});
