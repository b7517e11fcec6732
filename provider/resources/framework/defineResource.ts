import type { z } from "zod";
import type { OutputDecls } from "../../schemas/outputs";
import { type DynamicDoor, type ResourceBehaviour, type ResourceOperations, defineProvider } from "./defineProvider";
import type { Row } from "../../reconcile/platform";
import type { RowMapping } from "../../reconcile/automation/rows";
import type { Shape } from "../../schemas/common";
import { mappingOf } from "../../schemas/fieldCodec";
import { nounOf } from "../../schemas/nouns";
import { diffRow, rowBehaviour } from "./automationRow";
import { type HardwareDeclaration, type HardwareInputs, hardwareBehaviour } from "./hardwareResource";
import { type NameTakenRule, verifyNameFree } from "./nameTaken";

/** What schema.json, the docs, the SDK types and the environment loader need of a resource. */
export interface ResourceSchema {
  token: string;
  table: string;
  description: string;
  inputs: z.ZodObject;
  /** Computed outputs besides the echoed inputs and `id`. */
  outputs: OutputDecls;
}

/**
 * What the SDK's class of a resource does besides sending its inputs (sdk/declaredResource.ts does it, in the
 * program's process; scripts/gen-sdk-types.ts types the generated class by it).
 */
export interface SdkBehaviour {
  /**
   * Where the SDK refuses a `name` given twice, before anything is sent: across the program (the platform keeps
   * the names of VMs, vnets, users, ... unique), or on one VM for hardware of one kind (the provider finds a named
   * row of a machine by its name).
   */
  refuseDuplicateNames?: "inProgram" | "onMachine";
  /**
   * Hardware: `machine` takes a VM's (branded) machineKey; given that output, it copies the VM's key and
   * power-cycle policy into its inputs and is deleted with the VM.
   */
  onMachine?: boolean;
  /** Its `machineKey` output is what hardware attaches to: the SDK remembers whose it is (for `onMachine`). */
  ownsMachine?: boolean;
  /** False for a resource that makes no row (VmPower): no create marker to find it by. */
  createMarker?: boolean;
}

/** A declared resource: everything the doors, the SDK, schema.json and the docs derive from. */
export interface Resource extends ResourceSchema {
  sdk: SdkBehaviour;
  /** `vplatform/dynamic/<dynamicFile>`: the module each dynamic resource's `__provider` requires (kept for existing state). */
  dynamicFile: string;
  operations: ResourceOperations;
  /** The dynamic door's provider object: what the dynamic entry module exports. */
  dynamic: DynamicDoor;
  /** A row resource's derived row (declared with `names` and `marker`). */
  row?: RowFacts;
  /** The table its refresh reads from the run's listing (see ResourceBehaviour.refreshListing). */
  refreshListing?: string;
}

export interface ResourceDeclaration<I extends Row, O extends Row> extends ResourceBehaviour<I, O> {
  /** The resource's type name (`vplatform:index:<token>`): written here only; the list is keyed by it (provider/resources/index.ts). */
  token: string;
  /** The platform table its rows live in. */
  table: string;
  /** For schema.json and the docs. */
  description: string;
  sdk?: SdkBehaviour;
  /** Set by a row resource's declaration. */
  row?: RowFacts;
}

/**
 * How a resource's names are unique: on the platform (`unique`: the SDK refuses a name given twice in a program, a
 * replacement keeping its name deletes first, a create finds an earlier attempt's row by the name conflict), among
 * the rows of one machine (`perMachine`: hardware), or not at all (`free`).
 */
export type NameUniqueness = "unique" | "free" | "perMachine";

/**
 * Where a create marks the row it makes (see reconcile/createMarker.ts): its `description`, or `none` for a row
 * with no field to mark, found by its unique name (users, groups) or, with free names, by its content (an event
 * trigger, a grant).
 */
export type MarkerPlace = "description" | "none";

/** What the declaration of a row resource gives its behaviour hooks: its derived row and the shared behaviour on it. */
export interface RowKit<I extends Row> {
  /** The row mapping the declaration derives (table, noun, the shape's columns and codecs, identity, uniqueness). */
  rows: RowMapping<I>;
  /** The shared behaviour of one row (framework/automationRow.ts) on that mapping. */
  shared: ReturnType<typeof rowBehaviour<I & RowInputs>>;
}

type RowInputs = Row & { adopt?: boolean | string };

/**
 * A resource that is one row of a platform table, declared by its table, noun, shape, how its names are unique
 * and where its marker lives: the row mapping, the create-replace order, the SDK's duplicate-name rule, the
 * preview's name check and the behaviour are derived (a new row resource is this declaration and nothing else).
 */
export interface RowResourceDeclaration<I extends Row, O extends Row> {
  token: string;
  table: string;
  description: string;
  schema: z.ZodType;
  shape: Shape;
  names: NameUniqueness;
  marker: MarkerPlace;
  outputs?: OutputDecls;
  /**
   * Unique names only: whether the preview looks a new name up on the platform (default: it does). False keeps a
   * kind's preview as it was before the check was derived (webhooks, tasks, schedules, groups): the create's name
   * conflict is their guard; turning it on costs a read of the table per preview.
   */
  nameCheck?: boolean;
  /** The body's last word when a field's form needs another (an event trigger's object needs its type). */
  finishBody?(body: Row, inputs: Partial<I>, mode: "create" | "update", whole: Partial<I>): Row;
  /** What the resource does its own way (a secret answered once, linked rows, an extra check), on its derived row. */
  hooks?(kit: RowKit<I>): Partial<ResourceBehaviour<I, O>>;
  /**
   * `perMachine` rows (hardware: framework/hardwareResource.ts, marked in their description) where they differ
   * from the plain row of a machine: a diff of their own (a drive's data-loss warnings; by default the shape's),
   * their removal from a running machine.
   */
  hardware?: Pick<HardwareDeclaration<HardwareInputs, HardwareInputs>, "diff" | "removeLive">;
}

/** The row mapping a row resource's declaration derives. */
function rowMappingOf<I extends Row>(d: RowResourceDeclaration<I, Row>): RowMapping<I> {
  const mapped = mappingOf<I>(d.shape);
  const finish = d.finishBody;
  return {
    table: d.table,
    what: nounOf(d.token),
    readFields: mapped.readFields,
    toApiBody: finish
      ? (inputs, mode = "create", whole = inputs) => finish(mapped.toApiBody(inputs, mode), inputs, mode, whole)
      : mapped.toApiBody,
    fromApiRow: mapped.fromApiRow,
    identity: d.marker === "description" ? "marker" : d.names === "unique" ? "name" : "content",
    namesUniqueOnPlatform: d.names === "unique",
  };
}

/** The behaviour of a row of a machine (hardware): the hardware behaviour on the declaration's shape and table. */
function machineRowBehaviour<I extends Row, O extends Row>(
  d: RowResourceDeclaration<I, O>,
  rows: RowMapping<I>,
): ResourceDeclaration<I, O> {
  const hardware = hardwareBehaviour<HardwareInputs, HardwareInputs>({
    token: d.token,
    table: d.table,
    markedIn: "description",
    schema: d.schema,
    shape: d.shape,
    diff: (olds, news) => diffRow(d.shape, rows, olds, news),
    ...d.hardware,
  });
  return {
    ...(hardware as unknown as ResourceBehaviour<I, O> & { token: string; table: string; sdk: SdkBehaviour }),
    description: d.description,
    row: { rows: rows as RowMapping<Row>, noun: nounOf(d.token), names: d.names, marker: d.marker },
  };
}

/** The behaviour of a row resource: the shared row behaviour, the name check of unique names, then its hooks. */
function rowResourceBehaviour<I extends Row, O extends Row>(d: RowResourceDeclaration<I, O>): ResourceDeclaration<I, O> {
  const rows = rowMappingOf(d as RowResourceDeclaration<I, Row>);
  if (d.names === "perMachine") return machineRowBehaviour(d, rows);
  const shared = rowBehaviour(d.shape, rows as RowMapping<I & RowInputs>);
  const names: NameTakenRule = {
    table: d.table,
    noun: nounOf(d.token),
    shape: d.shape,
    listedFields: "$key,name",
    marked: d.marker === "description",
  };
  const checksName = d.names === "unique" && d.nameCheck !== false;
  return {
    token: d.token,
    table: d.table,
    description: d.description,
    schema: d.schema,
    outputs: d.outputs,
    sdk: d.names === "unique" ? { refuseDuplicateNames: "inProgram" } : {},
    ...(checksName ? { verify: (api, inputs, unknown, olds) => verifyNameFree(names, api, inputs, unknown, olds) } : {}),
    ...(shared as unknown as Pick<ResourceBehaviour<I, O>, "diff" | "create" | "read" | "update" | "delete">),
    ...d.hooks?.({ rows, shared: shared as RowKit<I>["shared"] }),
    row: { rows: rows as RowMapping<Row>, noun: nounOf(d.token), names: d.names, marker: d.marker },
  };
}

/** What the registry knows of a row resource besides its operations. */
export interface RowFacts {
  rows: RowMapping<Row>;
  noun: string;
  names: NameUniqueness;
  marker: MarkerPlace;
}

/** One resource, declared once: token, table, inputs, outputs, diff rules and behaviour (derived for a row resource). */
export function defineResource<I extends Row, O extends Row>(given: ResourceDeclaration<I, O> | RowResourceDeclaration<I, O>): Resource {
  const declaration = "names" in given ? rowResourceBehaviour(given) : given;
  const dynamic = defineProvider(declaration);
  return {
    token: declaration.token,
    table: declaration.table,
    description: declaration.description,
    inputs: declaration.schema as z.ZodObject,
    outputs: declaration.outputs ?? {},
    sdk: declaration.sdk ?? {},
    dynamicFile: declaration.token[0].toLowerCase() + declaration.token.slice(1),
    operations: dynamic.operations,
    dynamic,
    ...(declaration.row ? { row: declaration.row } : {}),
    ...(declaration.refreshListing ? { refreshListing: declaration.refreshListing } : {}),
  };
}

/** A row resource's derived row mapping, typed by its inputs (the row operations and their tests take it). */
export function rowsOf<I>(resource: Resource): RowMapping<I> {
  if (!resource.row) throw new Error(`vplatform: ${resource.token} is not declared as a row (names, marker)`);
  return resource.row.rows as RowMapping<I>;
}
