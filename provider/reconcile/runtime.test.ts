import { forgetOwedStart, oweStart, withMachineLock } from "./runtime";

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
