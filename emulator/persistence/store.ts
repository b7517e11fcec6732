/**
 * Persistence of the emulator state in `<dataDir>/state.json`: every change
 * schedules a save (debounced); a save writes a temporary file and renames it
 * over the old one, so a crash leaves either the old or the new state, never a
 * torn file. Sessions, rate-limit windows, faults and counters are not saved.
 * On load, operations that were in flight are settled (see settleInFlight).
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { EmulatorContext } from "../core/context";
import { BUSY_STATUSES, stoppedFields } from "../domain/machines";
import type { Row } from "../tables/types";

export const STATE_FILE = "state.json";
const FORMAT = 1;
export const SAVE_DEBOUNCE_MS = 100;

interface SavedState {
  format: number;
  savedAt: number;
  tables: Record<string, { nextKey: number; rows: Row[] }>;
}

export function serialize(ctx: EmulatorContext): string {
  const tables: SavedState["tables"] = {};
  for (const [name, store] of ctx.tables) {
    if (store.def.transient) continue;
    tables[name] = { nextKey: store.nextKey, rows: [...store.rows.values()] };
  }
  return JSON.stringify({ format: FORMAT, savedAt: Date.now(), tables } satisfies SavedState);
}

/** Loads saved rows into the context's registered tables; returns false when there is no saved state. */
export function loadState(ctx: EmulatorContext, dataDir: string): boolean {
  const file = join(dataDir, STATE_FILE);
  if (!existsSync(file)) return false;
  const state = JSON.parse(readFileSync(file, "utf8")) as SavedState;
  if (state.format !== FORMAT) throw new Error(`${file}: unsupported state format ${state.format}`);
  for (const [name, saved] of Object.entries(state.tables)) {
    const store = ctx.tables.get(name);
    if (!store) continue; // a table no longer registered
    store.rows = new Map(saved.rows.map((row) => [row.$key, row]));
    store.nextKey = saved.nextKey;
  }
  settleInFlight(ctx);
  return true;
}

/** Timers do not survive a restart: transitional states jump to where they were heading. */
export function settleInFlight(ctx: EmulatorContext): void {
  for (const status of ctx.all("machine_status")) {
    if (!BUSY_STATUSES.has(String(status.status))) continue;
    const on = status.powerstate === true && status.status !== "stopping";
    Object.assign(status, on ? { status: "running", running: true, state: "online" } : stoppedFields());
  }
  for (const table of ["machine_drive_status", "machine_nic_status"]) {
    for (const status of ctx.all(table)) {
      if (status.status !== "hotplugging") continue;
      const parent = ctx.get(table === "machine_drive_status" ? "machine_drives" : "machine_nics", status.$key);
      const on = parent ? ctx.get("machine_status", parent.machine)?.powerstate === true : false;
      status.status = table === "machine_drive_status" ? (on ? "online" : "offline") : on ? "up" : "down";
    }
  }
}

export function writeAtomically(dataDir: string, text: string): void {
  mkdirSync(dataDir, { recursive: true });
  const target = join(dataDir, STATE_FILE);
  const temporary = `${target}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, target);
}

/** Debounced saver: `changed()` after each change, `flush()` to write now (shutdown). */
export class Persister {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly ctx: EmulatorContext,
    private readonly dataDir: string,
  ) {}

  changed(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => this.flush(), SAVE_DEBOUNCE_MS);
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    writeAtomically(this.dataDir, serialize(this.ctx));
  }
}
