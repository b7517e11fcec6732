import { InMemoryContext } from "./context";
import type { TableDef } from "../model/types";

const things: TableDef = { name: "things", description: "test", keyType: "int", fields: { name: { type: "string" } } };
const named: TableDef = { name: "named", description: "test", keyType: "string", fields: {} };

describe("EmulatorContext database", () => {
  test("integer keys increase and accept numeric strings on lookup", () => {
    const ctx = new InMemoryContext();
    ctx.registerTables([things]);
    const a = ctx.insert("things", { name: "a" });
    const b = ctx.insert("things", { name: "b" });
    expect([a.$key, b.$key]).toEqual([1, 2]);
    expect(ctx.get("things", "2")?.name).toBe("b");
    expect(ctx.get("things", "x")).toBeUndefined();
  });

  test("string-keyed tables generate hex keys", () => {
    const ctx = new InMemoryContext();
    ctx.registerTables([named]);
    expect(String(ctx.insert("named", {}).$key)).toMatch(/^[0-9a-f]{40}$/);
  });

  test("row changes are emitted on the event bus", () => {
    const ctx = new InMemoryContext();
    ctx.registerTables([things]);
    const seen: string[] = [];
    ctx.events.on("*", (e) => seen.push(e.name));
    const row = ctx.insert("things", { name: "a" });
    ctx.update("things", row.$key, { name: "b" });
    ctx.remove("things", row.$key);
    expect(seen).toEqual(["things.created", "things.updated", "things.deleted"]);
  });

  test("a table cannot be registered twice", () => {
    const ctx = new InMemoryContext();
    ctx.registerTables([things]);
    expect(() => ctx.registerTables([things])).toThrow(/twice/);
  });
});

describe("EmulatorContext scheduler", () => {
  test("close() cancels scheduled changes", async () => {
    const ctx = new InMemoryContext(0.001);
    let ran = false;
    ctx.schedule(1000, () => {
      ran = true;
    });
    expect(ctx.pendingTimers()).toBe(1);
    ctx.close();
    await new Promise((r) => setTimeout(r, 20));
    expect(ran).toBe(false);
  });

  test("minRealMs is a floor on the scaled delay, also at time scale 0", async () => {
    const ctx = new InMemoryContext(0);
    const started = Date.now();
    await new Promise<void>((resolve) => ctx.schedule(1000, resolve, 30));
    expect(Date.now() - started).toBeGreaterThanOrEqual(29); // timers may fire a millisecond early
  });

  test("durations are multiplied by the time scale", async () => {
    const ctx = new InMemoryContext(0.001);
    const done = new Promise<void>((resolve) => ctx.schedule(5000, resolve));
    await done; // would time out the test at scale 1
    expect(ctx.pendingTimers()).toBe(0);
  });
});
