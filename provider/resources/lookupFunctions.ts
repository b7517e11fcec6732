import { z } from "zod";
import { LOOKUPS, type NamedLookup, type Row, findOne } from "../client/lookups";
import { str } from "../reconcile/platform";
import type { Session } from "../reconcile/session";
import { readEventCatalog } from "../reconcile/automation/eventCatalog";
import { rowByName } from "../reconcile/automation/rows";
import { tableRows } from "../reconcile/automation/tableRows";
import { findMediaFile, findVolume, listDirectory } from "../reconcile/automation/volumeFiles";
import {
  getEventTypesArgsSchema,
  getMediaFileByPathArgsSchema,
  getNasVolumeArgsSchema,
  getTableRowsArgsSchema,
  getUserArgsSchema,
  getVolumeFilesArgsSchema,
  nameArgsSchema,
} from "../schemas/automationLookups";
import { fieldMeta, type Shape } from "../schemas/common";
import { virtualMachineShape } from "./virtualMachine/schema";
import { vnetShape } from "./vnet/schema";
import { USER_TABLE } from "../schemas/tables";

/**
 * A look-up (`getVnet`, `getVolumeFiles`, ...): the one declaration of the SDK's function (its argument and
 * result types are generated from `args` and `result` into sdk/schemaTypes.generated.ts), schema.json's
 * function (inputs and outputs), the plugin's invoke and the docs. Arguments are checked by `args` at both
 * doors, each problem named by its argument.
 */
export interface LookupFunction<A extends z.ZodObject = z.ZodObject, R extends z.ZodObject = z.ZodObject> {
  /** `getVnet`: the function's name in the SDK and the last part of its token. */
  name: string;
  description: string;
  /** What the SDK function's doc comment says after the description: how a program uses the result. */
  usage?: string;
  args: A;
  result: R;
  run(api: Session, args: z.output<A>): Promise<z.output<R>>;
}

type Declaration<A extends z.ZodObject, R extends z.ZodObject> = Omit<LookupFunction<A, R>, "name">;
const declare = <A extends z.ZodObject, R extends z.ZodObject>(d: Declaration<A, R>): Declaration<A, R> => d;

const described = <T extends z.ZodType>(schema: T, description: string) => schema.meta({ description });
const text = (description: string) => described(z.string(), description);
const integer = (description: string) => described(z.number().int(), description);

/** A result field of a look-up by name, read from `column`. */
interface Column<T extends z.ZodString | z.ZodNumber = z.ZodString | z.ZodNumber> {
  column: string;
  schema: T;
}
const col = (column: string, description: string): Column<z.ZodString> => ({ column, schema: text(description) });
const num = (column: string, description: string): Column<z.ZodNumber> => ({ column, schema: integer(description) });
/** A result field read from the column a resource schema maps `field` to. */
const mapped = (shape: Shape, field: string, description: string) => col(fieldMeta(shape[field])!.api!, description);
const id = col("$key", "Row key");
const name = col("name", "Name");

/** The one row with this name (none or several is an error naming what was searched), as the declared columns. */
function byName<C extends Record<string, Column>>(description: string, lookup: NamedLookup, columns: C) {
  const result = z.object(Object.fromEntries(Object.entries(columns).map(([k, c]) => [k, c.schema])) as { [K in keyof C]: C[K]["schema"] });
  return declare({
    description,
    args: nameArgsSchema,
    result,
    async run(api, args) {
      const entries = Object.entries(columns);
      const row = await findOne<Row>(api, lookup, args.name, [...new Set(entries.map(([, c]) => c.column))].join(","));
      const value = (c: Column) => (c.schema instanceof z.ZodNumber ? Number(row[c.column]) : str(row[c.column]));
      return Object.fromEntries(entries.map(([k, c]) => [k, value(c)])) as z.output<typeof result>;
    },
  });
}

const volumeResult = { id: text("Volume key"), name: text("Name"), status: text("Status: online or offline") };

const volumeEntry = z.object({
  name: text("File or directory name"),
  path: text("Path relative to the volume's root"),
  size: integer("Size in bytes (0 for a directory)"),
  date: integer("Modification time, Unix seconds"),
  type: described(z.enum(["file", "directory"]), "file or directory"),
});

const FUNCTIONS = {
  getVnet: byName("The virtual network with this name.", LOOKUPS.vnet, {
    id,
    name: mapped(vnetShape, "name", "Name"),
    network: mapped(vnetShape, "network", "Network address (CIDR)"),
    type: mapped(vnetShape, "type", "Network type"),
  }),
  getVirtualMachine: byName("The VM (not a snapshot) with this name.", LOOKUPS.vm, {
    id,
    name: mapped(virtualMachineShape, "name", "Name"),
    machineKey: col("machine", "Machine key: what drives, NICs and devices attach to"),
    cluster: mapped(virtualMachineShape, "cluster", "Cluster key"),
  }),
  getCluster: byName("The cluster with this name.", LOOKUPS.cluster, { id, name }),
  getStorageTier: {
    ...byName('The storage tier "3", "Tier 3" or with this description (tiers have a number, no name).', LOOKUPS.storageTier, {
      id,
      name: col("description", "Description of the tier"),
      tier: num("tier", "Tier number"),
    }),
    usage: "The result's `name` is the tier's description.",
  },
  getResourceGroup: {
    ...byName(
      "The hardware resource group (GPUs, PCI, USB) with this name: attach one with a Device whose resourceGroup is its uuid.",
      LOOKUPS.resourceGroup,
      { uuid: col("uuid", "UUID, for a Device's resourceGroup"), name, type: col("type", "Device type"), id },
    ),
    usage: "For example `new Device(name, { machine, resourceGroup: group.uuid })`.",
  },
  getVgpuDevice: byName("The NVIDIA vGPU device with this name.", LOOKUPS.vgpuDevice, { id, name }),
  getMediaFile: byName("The media file (ISO, disk image) with this name, for a drive's mediaSource.", LOOKUPS.mediaFile, {
    id,
    name,
    type: col("type", "File type"),
    filesize: num("filesize", "Size in bytes"),
  }),
  getUser: declare({
    description: "The user with this name: the owner an API key takes its rights from.",
    args: getUserArgsSchema,
    result: z.object({
      id: text("User key"),
      name: text("Name"),
      displayName: text("Display name"),
      email: text("E-mail address"),
      role: text("Role: admin, vmoperator or readonly"),
      enabled: described(z.boolean(), "Whether the user may log in"),
    }),
    async run(api, args) {
      const row = await rowByName(api, USER_TABLE, "user", args.name, "$key,name,displayname,email,role,enabled");
      const [key, name, displayName, email, role] = ["$key", "name", "displayname", "email", "role"].map((c) => str(row[c]));
      return { id: key, name, displayName, email, role, enabled: row.enabled === true };
    },
  }),
  getNasVolume: declare({
    description: "The NAS volume with this name.",
    args: getNasVolumeArgsSchema,
    result: z.object(volumeResult),
    async run(api, args) {
      const { key, ...volume } = await findVolume(api, args.name);
      return { id: key, ...volume };
    },
  }),
  getVolumeFiles: declare({
    description:
      "One page of the files and directories in a directory of a NAS volume (a volume-browser job): directories first, then by name.",
    usage: "Page through a directory with `limit` and `offset`; `extensions` keeps only some files.",
    args: getVolumeFilesArgsSchema,
    result: z.object({ volume: text("Volume key"), entries: described(z.array(volumeEntry), "The page's entries") }),
    async run(api, { volume: volumeName, ...query }) {
      const volume = await findVolume(api, volumeName);
      return { volume: volume.key, entries: await listDirectory(api, volume, query) };
    },
  }),
  getMediaFileByPath: declare({
    description: "The ISO or disk image at this path on a NAS volume (a volume-browser job finds it): its id is a drive's mediaSource.",
    args: getMediaFileByPathArgsSchema,
    result: z.object({
      id: text("Media file key: a cdrom or import drive's mediaSource"),
      volume: text("Volume key"),
      name: text("File name"),
      path: text("Path relative to the volume's root"),
      size: integer("Size in bytes"),
      date: integer("Modification time, Unix seconds"),
    }),
    async run(api, args) {
      const found = await findMediaFile(api, args.volume, args.path);
      if ("problems" in found) throw new Error(found.problems.map((p) => `${p.path.join(".")}: ${p.message}`).join("; "));
      const { type: _type, ...file } = found.file;
      return file;
    },
  }),
  getEventTypes: declare({
    description: "The event types the platform offers and the events of each (for an EventTrigger's type and event).",
    args: getEventTypesArgsSchema,
    result: z.object({
      types: described(
        z.array(
          z.object({
            type: text("Event type (an area of the system, e.g. vms)"),
            events: described(z.array(z.string()), "Events of the type (e.g. poweroff)"),
            generic: described(z.boolean(), "Generic types (e.g. alarms) take neither an object nor a tag"),
          }),
        ),
        "The event types, by name",
      ),
    }),
    async run(api, args) {
      const catalog = await readEventCatalog(api);
      const names = Object.keys(catalog).sort();
      if (args.type !== undefined && !catalog[args.type])
        throw new Error(`type: the platform has no event type '${args.type}': give one of ${names.join(", ")}`);
      return {
        types: names
          .filter((t) => args.type === undefined || t === args.type)
          .map((type) => ({ type, events: [...catalog[type].events], generic: catalog[type].generic })),
      };
    },
  }),
  getTableRows: declare({
    description: "Rows of any table of the platform, read-only (clusters, certificates, licenses, logs ...): fields, filter, sort, limit.",
    usage: "Meant for the tables that have no resource of their own.",
    args: getTableRowsArgsSchema,
    result: z.object({ rows: described(z.array(z.record(z.string(), z.unknown())), "The rows, as the API answers them") }),
    async run(api, args) {
      return { rows: await tableRows(api, args) };
    },
  }),
};

export type LookupName = keyof typeof FUNCTIONS;

/** Each look-up's argument and result types, by name (the generated SDK types are checked against them). */
export type LookupArgsOf = { [N in LookupName]: z.input<(typeof FUNCTIONS)[N]["args"]> };
export type LookupResultOf = { [N in LookupName]: z.output<(typeof FUNCTIONS)[N]["result"]> };

export const LOOKUP_FUNCTIONS: LookupFunction[] = Object.entries(FUNCTIONS).map(
  ([fnName, fn]) => ({ name: fnName, ...fn }) as LookupFunction,
);

/** A problem of the arguments as `check` reports it: the argument, and what is wrong and what to do. */
export interface ArgumentFailure {
  property: string;
  reason: string;
}

/** What is wrong with one argument, saying what to give instead. */
function argumentFailure(fn: LookupFunction, inputs: Row, issue: z.core.$ZodIssue): ArgumentFailure {
  const shape = fn.args.shape as Record<string, z.ZodType>;
  if (issue.code === "unrecognized_keys") {
    const property = issue.keys.join(", ");
    return { property, reason: `${fn.name}: ${property}: no such argument: the arguments are ${Object.keys(shape).join(", ")}` };
  }
  const property = issue.path.join(".");
  const field = shape[String(issue.path[0])];
  const missing = issue.path.length === 1 && inputs[String(issue.path[0])] === undefined;
  const what = missing ? `is required: ${fieldMeta(field)?.description ?? "give it"}` : issue.message;
  return { property, reason: `${fn.name}: ${property}: ${what}` };
}

/** The arguments as `fn` takes them, or each problem named by its argument (what `check` answers). */
export function checkLookupArgs(
  fn: LookupFunction,
  inputs: unknown,
): { args: Row; failures?: undefined } | { failures: ArgumentFailure[] } {
  const given = (inputs ?? {}) as Row;
  const parsed = fn.args.safeParse(given);
  if (parsed.success) return { args: parsed.data };
  return { failures: parsed.error.issues.map((issue) => argumentFailure(fn, given, issue)) };
}

/** Runs `fn`: its arguments checked first; an error names the function (and the argument, when one is at fault). */
export async function runLookup(fn: LookupFunction, api: Session, inputs: unknown): Promise<Row> {
  const checked = checkLookupArgs(fn, inputs);
  if (checked.failures) throw new Error(`vplatform: ${checked.failures.map((f) => f.reason).join("; ")}`);
  try {
    return await fn.run(api, checked.args);
  } catch (err) {
    throw new Error(`vplatform: ${fn.name}: ${(err instanceof Error ? err.message : String(err)).replace(/^vplatform: /, "")}`);
  }
}
