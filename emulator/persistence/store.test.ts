import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildContext } from "../index";
import { JOURNAL_FILE } from "./journal";
import { Persister, STATE_FILE } from "./store";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "emu-store-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function saved(): { tables: Record<string, { nextKey: number; rows: Record<string, unknown>[] }> } {
  return JSON.parse(readFileSync(join(dir, STATE_FILE), "utf8"));
}

describe("the journal holds what the snapshot does not yet", () => {
  test("changes committed but never compacted are replayed; a torn last line is skipped", () => {
    const ctx = buildContext({ dataDir: dir, adminPassword: "x", timeScale: 0.001 });
    const persister = new Persister(ctx, dir);
    persister.flush();
    ctx.onChange = (table, key) => persister.changed(table, key);
    const tag = ctx.insert("tags", { name: "kept", description: "", category: null });
    persister.commit();
    ctx.close(); // killed: no flush, the snapshot lacks the tag
    writeFileSync(join(dir, JOURNAL_FILE), `${readFileSync(join(dir, JOURNAL_FILE), "utf8")}{"t":"tags","k":99,"r":{"$k`);
    expect(saved().tables.tags.rows).toEqual([]);
    const again = buildContext({ dataDir: dir, adminPassword: "x" });
    expect(again.get("tags", tag.$key)?.name).toBe("kept");
    expect(again.get("tags", 99)).toBeUndefined();
    expect(again.store("tags").nextKey).toBe(Number(tag.$key) + 1);
    again.close();
  });
});

describe("state saved by an older emulator", () => {
  test("vnets get a stopped machine and clusters a status row", () => {
    const ctx = buildContext({ dataDir: dir, adminPassword: "x" });
    new Persister(ctx, dir).close();
    ctx.close();
    const state = saved();
    for (const vnet of state.tables.vnets.rows) delete vnet.machine;
    for (const cluster of state.tables.clusters.rows) cluster.status = "online";
    state.tables.cluster_status.rows = [];
    writeFileSync(join(dir, STATE_FILE), JSON.stringify(state));
    const loaded = buildContext({ dataDir: dir, adminPassword: "x" });
    const vnet = loaded.get("vnets", 1)!;
    expect(loaded.get("machine_status", vnet.machine)?.status).toBe("stopped");
    expect(loaded.get("cluster_status", 1)?.status).toBe("online");
    expect(loaded.get("clusters", 1)?.status).toBe(1);
    loaded.close();
  });
});
