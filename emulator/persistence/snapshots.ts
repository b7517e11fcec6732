/**
 * Named snapshots of the whole state (`<snapshotDir>/<name>.json`), so a test suite starts from a fixture
 * lab in milliseconds: saved atomically (temporary file + rename), and read back only when the file is
 * whole and from an emulator with the same tables — a corrupt or foreign file is refused with the reason
 * before anything of the running state is touched.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { EmulatorContext } from "../engine/context";
import { ApiError, validationError } from "../model/errors";
import { savedTables, writeFileAtomically, type SavedTables } from "./store";

const KIND = "vplatform-emulator-snapshot";
const FORMAT = 1;
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

interface SnapshotFile {
  kind: string;
  format: number;
  /** The fingerprint of the tables it was saved from (see tablesFingerprint). */
  tables_fingerprint: string;
  savedAt: number;
  tables: SavedTables;
}

export interface SnapshotInfo {
  name: string;
  file: string;
  bytes: number;
  savedAt: number;
}

/** Names, key types and field names of the saved tables: two emulators with the same fingerprint read each other's rows. */
export function tablesFingerprint(ctx: EmulatorContext): string {
  const shape = [...ctx.tables.values()]
    .filter((store) => !store.def.transient)
    .map((store) => [store.def.name, store.def.keyType, Object.keys(store.def.fields).sort()])
    .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
  return createHash("sha256").update(JSON.stringify(shape)).digest("hex").slice(0, 16);
}

export class SnapshotLibrary {
  constructor(readonly dir: string) {}

  fileOf(name: string): string {
    if (!NAME.test(name)) {
      throw validationError("name", `snapshot names are 1–64 letters, digits, '.', '_' or '-' (got '${name}')`);
    }
    return join(this.dir, `${name}.json`);
  }

  save(ctx: EmulatorContext, name: string): SnapshotInfo {
    const file = this.fileOf(name);
    const snapshot: SnapshotFile = {
      kind: KIND,
      format: FORMAT,
      tables_fingerprint: tablesFingerprint(ctx),
      savedAt: Date.now(),
      tables: savedTables(ctx),
    };
    writeFileAtomically(file, JSON.stringify(snapshot));
    return this.info(name);
  }

  /** The snapshot's tables, checked whole and compatible with `ctx`; throws (404, 422) otherwise. */
  read(ctx: EmulatorContext, name: string): SavedTables {
    const file = this.fileOf(name);
    if (!existsSync(file)) throw new ApiError(404, `snapshot '${name}' not found in ${this.dir} (list them with GET /_emulator/snapshots)`);
    let snapshot: SnapshotFile;
    try {
      snapshot = JSON.parse(readFileSync(file, "utf8")) as SnapshotFile;
    } catch (e) {
      throw new ApiError(422, `snapshot '${name}' (${file}) is corrupt: ${(e as Error).message}; save it again`);
    }
    if (snapshot?.kind !== KIND || typeof snapshot.tables !== "object" || snapshot.tables === null) {
      throw new ApiError(422, `snapshot '${name}' (${file}) is not an emulator snapshot; save it again`);
    }
    const fingerprint = tablesFingerprint(ctx);
    if (snapshot.format !== FORMAT || snapshot.tables_fingerprint !== fingerprint) {
      throw new ApiError(
        422,
        `snapshot '${name}' was saved by another emulator version (format ${snapshot.format}, tables ${snapshot.tables_fingerprint}; ` +
          `this one: format ${FORMAT}, tables ${fingerprint}); save it again with this version`,
      );
    }
    for (const [table, saved] of Object.entries(snapshot.tables)) {
      if (!Array.isArray(saved?.rows) || !Number.isSafeInteger(saved.nextKey)) {
        throw new ApiError(422, `snapshot '${name}' (${file}) is corrupt: table '${table}' lacks its rows or key counter; save it again`);
      }
    }
    return snapshot.tables;
  }

  list(): SnapshotInfo[] {
    if (!existsSync(this.dir)) return [];
    return readdirSync(this.dir)
      .filter((entry) => entry.endsWith(".json") && NAME.test(entry.slice(0, -5)))
      .map((entry) => this.info(entry.slice(0, -5)))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  private info(name: string): SnapshotInfo {
    const file = this.fileOf(name);
    const stat = statSync(file);
    return { name, file, bytes: stat.size, savedAt: Math.floor(stat.mtimeMs) };
  }
}
