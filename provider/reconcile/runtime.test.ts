import type { PlatformApi } from "./platform";
import { configureRuntime, forgetOwedStart, oweStart, platformApi, setPlatformApiFactory, withMachineLock } from "./runtime";

const tick = () => new Promise((r) => setImmediate(r));

describe("a start owed to a machine stopped for hardware changes", () => {
  test("is paid once, by the last change queued on the machine", async () => {
    const starts: string[] = [];
    const change = (name: string) =>
      withMachineLock("m1", async () => {
        oweStart("m1", async () => void starts.push(`start after ${name}`));
        await tick();
      });
    await Promise.all([change("a"), change("b"), change("c")]);
    expect(starts).toEqual(["start after c"]);
  });

  test("is paid even when the last change fails, whose error still reaches its caller", async () => {
    const starts: string[] = [];
    await expect(
      withMachineLock("m2", async () => {
        oweStart("m2", async () => void starts.push("start"));
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(starts).toEqual(["start"]);
  });

  test("is dropped when the machine's power is decided otherwise", async () => {
    const starts: string[] = [];
    await withMachineLock("m3", async () => {
      oweStart("m3", async () => void starts.push("start"));
      forgetOwedStart("m3");
    });
    expect(starts).toEqual([]);
  });

  test("a failed start fails the change that paid it", async () => {
    await expect(
      withMachineLock("m4", async () => {
        oweStart("m4", async () => {
          throw new Error("507 insufficient cluster resources");
        });
      }),
    ).rejects.toThrow("507");
  });
});

describe("the API client across configure calls", () => {
  const built: { endpoint: string | undefined; closed: number }[] = [];
  beforeEach(() => {
    built.length = 0;
    setPlatformApiFactory((get) => {
      const client = { endpoint: get("vplatform:endpoint"), closed: 0 };
      built.push(client);
      return { close: () => void client.closed++ } as unknown as PlatformApi;
    });
  });
  const config = (endpoint: string) => (key: string) => ({ "vplatform:endpoint": endpoint, "vplatform:apiKey": "k" })[key];

  test("is kept when the engine configures again with the same settings (once per resource type)", () => {
    configureRuntime(config("https://a"));
    const first = platformApi();
    configureRuntime(config("https://a"));
    configureRuntime(config("https://a"));
    expect(platformApi()).toBe(first);
    expect(built).toEqual([{ endpoint: "https://a", closed: 0 }]);
  });

  test("is closed (its keep-alive connections ended) when other settings replace it", () => {
    configureRuntime(config("https://a"));
    platformApi();
    configureRuntime(config("https://b"));
    platformApi();
    expect(built).toEqual([{ endpoint: "https://a", closed: 1 }, { endpoint: "https://b", closed: 0 }]);
  });
});
