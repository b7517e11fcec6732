/**
 * `logs` (the system log) and `machine_logs` (one machine's log), read-only, with the fields the maker's
 * clients read (pyVergeOS' log and machine-log services). Timestamps are in microseconds, as those clients
 * read them. Rows come from what the emulator does (see index.ts) and one seeded start-up line.
 */
import { applyDefaults } from "../../engine/write";
import type { EmulatorContext, FieldDef } from "../../model/types";
import { listedRows, table } from "../../model/tableParts";
import { LOGS } from "../../model/names/logs";
import { COMPUTE } from "../../model/names/compute";

export const LOG_LEVELS = {
  critical: "Critical",
  error: "Error",
  warning: "Warning",
  message: "Message",
  audit: "Audit",
  summary: "Summary",
  debug: "Debug",
} as const;
export type LogLevel = keyof typeof LOG_LEVELS;

/** What a log line is about (`object_type`), as the maker's clients filter on it. */
const OBJECT_TYPES = {
  vm: "VM",
  vnet: "Network",
  tenant: "Tenant",
  user: "User",
  system: "System",
  node: "Node",
  cluster: "Cluster",
  file: "File",
  group: "Group",
  task: "Task",
  site: "Site",
  other: "Other",
};
export type LogObjectType = keyof typeof OBJECT_TYPES;

const line: Record<string, FieldDef> = {
  level: { type: "string", readOnly: true, enum: LOG_LEVELS, summary: true },
  text: { type: "text", readOnly: true, summary: true },
  user: { type: "string", readOnly: true, default: "" },
  timestamp: { type: "uint64", readOnly: true, description: "microseconds since the epoch" },
};

export const logsTable = table(LOGS.logs, {
  description: "the system log (read-only): power changes, clones, snapshots and restores of VMs, the emulator's start",
  ...listedRows("int"),
  fields: {
    ...line,
    object_type: { type: "string", readOnly: true, default: "system", enum: OBJECT_TYPES },
    object_name: { type: "string", readOnly: true, default: "" },
    object_key: { type: "string", readOnly: true, default: "", description: "key of the row the line is about" },
  },
  seed: (ctx) => writeLog(ctx, { level: "message", text: "system started", object_type: "system", object_name: "system" }),
});

export const machineLogsTable = table(LOGS.machine_logs, {
  description: "what happened to one machine (read-only); removed with the machine",
  ...listedRows("int"),
  fields: {
    machine: { type: "row", ref: COMPUTE.machines, readOnly: true, summary: true },
    ...line,
  },
});

const microseconds = (ctx: EmulatorContext) => ctx.now() * 1000;

export function writeLog(
  ctx: EmulatorContext,
  entry: { level: LogLevel; text: string; object_type: LogObjectType; object_name: string; object_key?: string; user?: string },
): void {
  ctx.insert(LOGS.logs, applyDefaults(ctx, logsTable, { ...entry, timestamp: microseconds(ctx) }));
}

export function writeMachineLog(ctx: EmulatorContext, entry: { machine: unknown; level: LogLevel; text: string; user?: string }): void {
  ctx.insert(LOGS.machine_logs, applyDefaults(ctx, machineLogsTable, { ...entry, timestamp: microseconds(ctx) }));
}
