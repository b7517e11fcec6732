import { z } from "zod";
import { noChange } from "../../plan/diff";
import { PartialCreateError, type ResourceBehaviour, dynamicDoor, resourceOperations } from "./defineProvider";
import { SessionRegistry } from "./sessionRegistry";
import type { PlatformApi } from "../../reconcile/platform";
import { currentDeadline, engineDeadline, withDeadline } from "../../client/operationDeadline";
import { PREVIEW_UNKNOWN as UNKNOWN } from "../../schemas/normalize";
import { apiField } from "../../schemas/common";

const schema = z.object({ name: z.string().min(1), size: z.number().default(1) });
type I = z.output<typeof schema>;

/** The dynamic door of a resource "Thing", configured (on a platform that is never asked anything). */
function fake(overrides: Partial<ResourceBehaviour<I, I>> = {}) {
  const sessions = new SessionRegistry(() => ({}) as PlatformApi);
  sessions.configure("Thing", () => undefined);
  return dynamicDoor(
    resourceOperations<I, I>({
      token: "Thing",
      schema,
      diff: () => noChange(),
      create: async (_session, inputs) => ({ id: "1", outs: { ...inputs, extra: undefined } as I }),
      read: async () => undefined,
      update: async (_session, _id, _o, news) => news,
      delete: async () => undefined,
      ...overrides,
    }),
    sessions,
  );
}

describe("defineProvider", () => {
  test("check returns normalized inputs or {property, reason} failures", async () => {
    await expect(fake().check!({}, { name: "a", __provider: "x" })).resolves.toEqual({ inputs: { name: "a", size: 1 } });
    const r = await fake().check!({}, { name: "" });
    expect(r.failures?.[0].property).toBe("name");
  });

  test("check skips platform verification of unknown fields and passes them through", async () => {
    const verify = jest.fn(async () => []);
    const r = await fake({ verify }).check!({}, { name: UNKNOWN });
    expect(r.inputs).toEqual({ name: UNKNOWN, size: 1 });
    expect(verify).toHaveBeenCalledWith(expect.anything(), { name: UNKNOWN, size: 1 }, new Set(["name"]), {});
  });

  test("outputs are plain JSON (no undefined)", async () => {
    const out = await fake().create({ name: "a", size: 1 });
    expect(Object.keys(out.outs)).toEqual(["name", "size"]);
  });

  test("a row gone on read is reported with an empty id", async () => {
    await expect(fake().read!("1", {})).resolves.toEqual({ id: "", props: {} });
  });

  test("an import declares the live row as check would, leaving out values the schema refuses and empty secrets", async () => {
    const importable = z.object({
      name: z.string().min(1),
      address: z.string().min(1).optional(),
      passHash: apiField(z.string().optional(), "pass_hash", "string", "a secret", { secret: true }),
      note: z.string().optional(),
    });
    const live = { name: "a", address: "", passHash: "", note: "" };
    const p = fake({ schema: importable, read: async () => ({ inputs: live, outs: { ...live, status: "up" } }) as never });
    await expect(p.read!("1", {})).resolves.toEqual({
      id: "1",
      inputs: { name: "a", note: "" },
      props: { name: "a", note: "", status: "up" },
    });
    const held = { ...live, passHash: "x1" };
    const q = fake({ schema: importable, read: async () => ({ inputs: held, outs: held }) as never });
    expect((await q.read!("1", {})).inputs).toEqual({ name: "a", passHash: "x1", note: "" });
  });

  test("a partially created resource keeps __provider so refresh and destroy can run", async () => {
    const p = fake({
      create: async () => {
        throw new PartialCreateError("vplatform: half made", "7", { name: "a" }, "finish it");
      },
    });
    const err = await p.create({ name: "a", size: 1, __provider: "code" } as I).catch((e) => e);
    expect(err).toMatchObject({ id: "7", properties: { name: "a", __provider: "code" } });
    // What the engine prints ("1 error occurred: * ...") is the message with its next step.
    expect(err.reasons).toEqual(["vplatform: half made. Next: finish it"]);
  });

  test("diff prints its warnings and reports replacements", async () => {
    const log = jest.spyOn(console, "log").mockImplementation(() => undefined);
    const p = fake({
      diff: () => ({
        ...noChange(),
        changes: true,
        replaces: ["size"],
        deleteBeforeReplace: true,
        warnings: ["size forces a replacement"],
      }),
    });
    const d = await p.diff!("1", { name: "a", size: 1 }, { name: "a", size: 2 });
    expect(log).toHaveBeenCalledWith("vplatform: Thing 1: size forces a replacement");
    log.mockRestore();
    expect(d).toEqual({ changes: true, replaces: ["size"], deleteBeforeReplace: true });
  });
});

describe("each operation runs under its own deadline, named as the user sets it", () => {
  const limitSeen = () => {
    const seen: { limit?: string; seconds?: number }[] = [];
    const note = () => void seen.push({ limit: currentDeadline()?.limit, seconds: currentDeadline()?.seconds });
    const p = fake({
      verify: async () => (note(), []),
      create: async (_s, inputs) => (note(), { id: "1", outs: inputs }),
      read: async (_s, _id, olds) => (note(), { inputs: olds, outs: olds }),
      update: async (_s, _id, _o, news) => (note(), news),
      delete: async () => void note(),
    });
    return { p, seen };
  };

  test("create, update and delete under timeouts.<operation>; check and read under vplatform's named limits", async () => {
    const { p, seen } = limitSeen();
    const timeouts = { create: 11, update: 22, delete: 33 };
    await p.check!({}, { name: "a" });
    await p.create({ name: "a", timeouts });
    await p.read!("1", { name: "a" });
    await p.update!("1", { name: "a" }, { name: "b", timeouts });
    await p.delete!("1", { name: "b", timeouts });
    expect(seen).toEqual([
      { limit: "vplatform's check limit", seconds: 600 },
      { limit: "timeouts.create", seconds: 11 },
      { limit: "vplatform's read limit", seconds: 600 },
      { limit: "timeouts.update", seconds: 22 },
      { limit: "timeouts.delete", seconds: 33 },
    ]);
  });

  test("an update without timeouts runs under the default of timeouts.update, not timeouts.create", async () => {
    const { p, seen } = limitSeen();
    await p.update!("1", { name: "a" }, { name: "b" });
    expect(seen).toEqual([{ limit: "timeouts.update", seconds: 600 }]);
  });

  test("the engine's customTimeouts, set by the plugin's door, beat the timeouts input", async () => {
    const { p, seen } = limitSeen();
    await withDeadline(engineDeadline("update", 5), () => p.update!("1", { name: "a" }, { name: "b", timeouts: { update: 22 } }));
    expect(seen).toEqual([{ limit: "customTimeouts.update", seconds: 5 }]);
  });
});
