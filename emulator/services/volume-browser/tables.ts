/**
 * Tables of the NAS volume browser: `vm_services` (the NAS service VM the
 * volumes depend on), `volumes` (one row per configured volume) and
 * `volume_browser` (asynchronous jobs). Volumes and services come from the
 * emulator options at every start, so all three tables are transient.
 */
import { createHash } from "node:crypto";
import type { EmulatorContext } from "../../engine/context";
import { hasRole } from "../identity/access";
import { ApiError } from "../../model/errors";
import type { FieldDef, Row, TableDef } from "../../model/types";
import { descriptionField, enabledField, table, timestampFields } from "../../model/tableParts";
import { QUERIES, validateParams, type Query } from "./params";
import { VOLUME_BROWSER } from "../../model/names/volume-browser";
import { COMPUTE } from "../../model/names/compute";
import { SYSTEM_CALLER } from "../../model/callers";

export const NAS_SERVICE_NAME = "NAS";

/** Volume keys are SHA1-style: the SHA1 of the volume name, stable across restarts. */
export function volumeKey(name: string): string {
  return createHash("sha1").update(name).digest("hex");
}

/** Read-ahead sizes (KB; "0" = automatic) as the platform lists them. */
const READ_AHEAD_KB = ["0", "64", "128", "256", "512", "1024", "2048", "4096"];
function readAheadField(): FieldDef {
  return {
    type: "string",
    default: "0",
    enum: Object.fromEntries(READ_AHEAD_KB.map((kb) => [kb, kb === "0" ? "Automatic" : `${kb} KB`])),
    coerce: (value) => (typeof value === "number" ? String(value) : value),
  };
}

function settingsRef(what: string): FieldDef {
  return { type: "uint32", compute: (_ctx, row) => row.$key, description: `the service's ${what} settings (same key)` };
}

export const vmServicesTable = table(VOLUME_BROWSER.vm_services, {
  description: "services run by a service VM; the NAS service serves the volumes (PUT status stopped/running, DELETE to simulate its loss)",
  keyType: "int",
  transient: true,
  operations: ["list", "get", "update", "delete"],
  fields: {
    name: { type: "string", readOnly: true, summary: true },
    type: { type: "string", readOnly: true, enum: { nas: "NAS" } },
    status: { type: "string", enum: { running: "Running", stopped: "Stopped" }, default: "running" },
    // Settings of the NAS service the maker's clients read; the emulator serves the volumes whatever they say.
    enabled: enabledField(),
    vm: { type: "row", ref: COMPUTE.vms, readOnly: true, default: null, description: "the service's VM (the emulated NAS has no VM row)" },
    volumes: { type: "rows", ref: VOLUME_BROWSER.volumes, via: "service" },
    // References to the service's settings rows, as govergeos decodes them (FlexInt); the emulator has no settings
    // tables, so each answers the service's own key (one settings row per service).
    cifs: settingsRef("CIFS"),
    nfs: settingsRef("NFS"),
    antivirus: settingsRef("antivirus"),
    disable_swap: { type: "bool", default: false },
    max_imports: { type: "uint8", default: 2 },
    max_syncs: { type: "uint8", default: 2 },
    // Text, as govergeos decodes it (`string` in its NASService); pyVergeOS sends a number, which is accepted as text.
    read_ahead_kb_default: readAheadField(),
    ...timestampFields(),
  },
});

export const volumesTable = table(VOLUME_BROWSER.volumes, {
  description: "NAS volumes configured at start (EmulatorOptions.volumes); PUT status online/offline",
  keyType: "string",
  transient: true,
  operations: ["list", "get", "update"],
  fields: {
    id: {
      type: "string",
      compute: (_ctx, row) => String(row.$key),
      description: "the volume's id (its key), which NAS clients look volumes up by",
    },
    name: { type: "string", readOnly: true, summary: true },
    description: descriptionField(),
    status: { type: "string", enum: { online: "Online", offline: "Offline" }, default: "online" },
    service: { type: "row", ref: VOLUME_BROWSER.vm_services, readOnly: true },
    created: { type: "created", readOnly: true },
    // The volume's settings as the maker's clients read and send them; the browser serves the host directory whatever they say.
    enabled: enabledField(),
    fs_type: {
      type: "string",
      readOnly: true,
      default: "ext4",
      enum: { ext4: "EXT4", xfs: "XFS", remote: "Remote", remotefs: "Remote FS" },
    },
    maxsize: { type: "uint64", default: 0, description: "bytes; 0 = no limit" },
    preferred_tier: { type: "string", default: "1", enum: { 1: "1", 2: "2", 3: "3", 4: "4", 5: "5" } },
    read_only: { type: "bool", default: false },
    discard: { type: "bool", default: true },
    encrypt: { type: "bool", readOnly: true, default: false },
    automount_snapshots: { type: "bool", default: false },
    owner_user: { type: "string", default: "" },
    owner_group: { type: "string", default: "" },
    snapshot_profile: { type: "row", ref: "snapshot_profiles", default: null },
    drive: {
      type: "row",
      ref: COMPUTE.machine_drives,
      readOnly: true,
      default: null,
      description: "the drive holding the volume (none here)",
    },
    is_snapshot: { type: "bool", readOnly: true, default: false },
    mount_options: { type: "string", default: "" },
    remote_target: { type: "string", readOnly: true, default: "" },
    nfs_protocol: { type: "string", readOnly: true, default: "" },
    cifs_protocol: { type: "string", readOnly: true, default: "" },
    cifs_user: { type: "string", readOnly: true, default: "" },
    optimize: { type: "string", default: "" },
    // Text, as govergeos decodes it (`string` in its Volume and its requests); numbers are accepted as text.
    read_ahead_kb: readAheadField(),
    note: { type: "text", default: "" },
    creator: { type: "string", readOnly: true, default: SYSTEM_CALLER.user },
    modified: { type: "modified", readOnly: true },
  },
});

/** Seconds a job is announced to live (`expires`). */
const JOB_LIFETIME_S = 3600;

/** Jobs kept; beyond it the oldest finished jobs are dropped. */
export const MAX_JOBS = 1000;

/** Queries that change the volume need more than read rights. */
function checkQueryRole(query: Query, caller: Parameters<typeof hasRole>[0]): void {
  if (query !== "get-dir" && !hasRole(caller, "vmoperator")) {
    throw new ApiError(403, `permission denied: volume_browser ${query} requires vmoperator`);
  }
}

function dropOldJobs(ctx: EmulatorContext): void {
  const jobs = ctx.all(VOLUME_BROWSER.volume_browser);
  let excess = jobs.length - MAX_JOBS;
  for (const job of jobs) {
    if (excess <= 0) return;
    if (job.status === "running") continue;
    ctx.remove(VOLUME_BROWSER.volume_browser, job.$key);
    excess--;
  }
}

/** `onCreate` starts the job (scheduled by the feature, which knows the host directories). */
export function volumeBrowserTable(onCreate: (ctx: EmulatorContext, job: Row) => void): TableDef {
  return {
    name: VOLUME_BROWSER.volume_browser,
    description: "asynchronous NAS volume browser jobs: POST {volume, query, params} → running → complete|error",
    keyType: "string",
    transient: true,
    operations: ["list", "get", "create", "delete"],
    readRole: "readonly",
    writeRole: "readonly",
    defaultFields: ["id", "query", "status", "command"],
    fields: {
      id: { type: "string", compute: (_ctx, row) => row.$key },
      volume: { type: "row", ref: VOLUME_BROWSER.volumes, required: true, refMustExist: 404 },
      query: { type: "string", required: true, enum: QUERIES },
      params: { type: "json", required: true, notInMost: true },
      status: { type: "string", readOnly: true, default: "running", enum: { running: "Running", complete: "Complete", error: "Error" } },
      result: {
        type: "json",
        readOnly: true,
        notInMost: true,
        description: "entries on complete, the message on error; only when requested",
      },
      command: { type: "string", readOnly: true },
      creator: { type: "string", readOnly: true },
      created: { type: "created", readOnly: true },
      modified: { type: "uint64", readOnly: true, description: "seconds since the epoch: creation, then the job's end" },
      expires: {
        type: "uint64",
        compute: (_ctx, row) => Number(row.created) + JOB_LIFETIME_S,
        description: `creation + ${JOB_LIFETIME_S} s, the platform's lifetime of a job (here jobs go only beyond ${MAX_JOBS})`,
      },
    },
    hooks: {
      validate: (_ctx, row, _previous, caller) => {
        const query = row.query as Query;
        checkQueryRole(query, caller);
        row.params = validateParams(query, row.params, String(row.volume));
        row.command = `${query} ${JSON.stringify(row.params)}`;
        row.creator = caller.user;
        row.modified = row.created;
      },
      afterCreate: (ctx, row) => {
        dropOldJobs(ctx);
        onCreate(ctx, row);
      },
    },
  };
}
