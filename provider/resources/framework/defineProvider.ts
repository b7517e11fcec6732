import type * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import type { ResourceDiff } from "../../plan/diff";
import { machineOfUpdatedVm } from "../../plan/machineOfUpdatedVm";
import { dropHostErrorEchoesOnce } from "./hostErrorEcho";
import type { Row } from "../../reconcile/platform";
import type { Session } from "../../reconcile/session";
import { inEngineSlot } from "../../reconcile/queuedStarts";
import { type SessionRegistry, dynamicSessions } from "./sessionRegistry";
import { explained } from "../../client/errors";
import type { OperationTimeouts } from "../../schemas/timeouts";
import { fieldMeta, shapeOf } from "../../schemas/common";
import type { OutputDecls } from "../../schemas/outputs";
import { secretProperties } from "../../schemas/secretFields";
import { importWarnings } from "../../schemas/unreadable";
import { type CheckFailure, asEngineFailure, checkInputs, plainJson } from "./checkInputs";
import { watchEngineOnce } from "../../client/exitWithEngine";
import { showLinesOnResourcesOnce } from "../../client/dynamicHostLines";
import { keepYoungGenerationSmall } from "../../client/youngGeneration";
import { currentDeadline, deadlineIn, withDeadline } from "../../client/operationDeadline";
import { DEFAULT_TIMEOUTS, resolveTimeouts } from "./operationTimeouts";
import { withGenerationMarker } from "../../reconcile/createMarker";
import { referencesOf, verifyReferences } from "./referenceCheck";
import { HIDDEN_INPUTS, MARKER_INPUT } from "../../schemas/hiddenInputs";

type DynamicProvider = pulumi.dynamic.ResourceProvider;

export interface Created<O> {
  id: string;
  outs: O;
}

export interface ReadBack<I, O> {
  outs: O;
  /** The live object expressed as inputs, so a refresh leaves no diff. */
  inputs: I;
}

/**
 * One resource's behaviour: every method gets the session of the provider
 * configuration it runs for, validated, normalized inputs and the previous
 * outputs (which echo the inputs plus computed fields).
 */
export interface ResourceBehaviour<I extends Row, O extends Row> {
  token: string;
  schema: z.ZodType;
  /** Computed outputs besides the echoed inputs and `id`. */
  outputs?: OutputDecls;
  /** Read-only checks that need the platform (never mutates); runs only on known fields. */
  verify?(session: Session, inputs: I, unknown: Set<string>, olds: Row | undefined): Promise<CheckFailure[]>;
  /** Pure (no requests): `pulumi preview` calls it. Its warnings are printed. */
  diff(id: string, olds: O, news: I): ResourceDiff;
  create(session: Session, inputs: I): Promise<Created<O>>;
  /** Undefined when the object no longer exists. */
  read(session: Session, id: string, olds: O): Promise<ReadBack<I, O> | undefined>;
  update(session: Session, id: string, olds: O, news: I): Promise<O>;
  delete(session: Session, id: string, olds: O): Promise<void>;
  /** `createMarker: false`: the resource makes no row, it only acts (VmPower); its failures speak of the action. */
  sdk?: { createMarker?: boolean };
  /**
   * The table whose rows a refresh of this resource reads from the run's one listing of marked rows
   * (reconcile/refreshListing.ts) rather than by one GET each: set for the kinds a lab holds many of (VMs and the kinds
   * that read a VM's row, vnets, drives, NICs); only a table whose rows carry the marker in `description` can be
   * listed so. Unset, a refresh reads row by row (setting it changes a kind's request counts).
   */
  refreshListing?: string;
}

/** Plain JSON in and out: what each door (dynamic provider, plugin) turns into its own protocol. */
export interface ResourceOperations {
  token: string;
  /** The zod input schema (schema.json's inputProperties are generated from it). */
  schema: z.ZodType;
  /** The properties each door keeps secret in state: secret inputs (echoed in outputs) and secret outputs. */
  secretProperties: readonly string[];
  /** `olds`: the inputs of the last run ({} for a new resource; undefined when the door does not say): checks of unchanged values are skipped. */
  check(session: Session, news: Row, olds?: Row): Promise<{ inputs?: Row; failures?: CheckFailure[] }>;
  diff(id: string, olds: Row, news: Row): Promise<{ changes: boolean; replaces: string[]; deleteBeforeReplace: boolean }>;
  create(session: Session, inputs: Row): Promise<{ id: string; outs: Row }>;
  /** `id` "" when the object no longer exists. Empty `props` (import, `.get()`): the whole live object. */
  read(session: Session, id: string, props: Row): Promise<{ id: string; props: Row; inputs?: Row }>;
  update(session: Session, id: string, olds: Row, news: Row): Promise<Row>;
  delete(session: Session, id: string, props: Row): Promise<void>;
}

/** One implementation of a resource for both doors: no behaviour lives in a door only. */
export function resourceOperations<I extends Row, O extends Row>(b: ResourceBehaviour<I, O>): ResourceOperations {
  const shape = shapeOf(b.schema);
  const references = referencesOf(shape);
  const acts = b.sdk?.createMarker === false;
  return {
    token: b.token,
    schema: b.schema,
    secretProperties: secretProperties(b.schema, b.outputs),
    async check(session, proposed, olds) {
      const news = machineOfUpdatedVm(olds, proposed);
      const checked = checkInputs(b.schema, news);
      const reported = (failures: CheckFailure[]) => ({ failures: failures.map((f) => asEngineFailure(proposed, f)) });
      if (!checked.ok) return reported(checked.failures);
      const verify = b.verify;
      const failures = await within(CHECK_LIMIT, async () => [
        ...(verify ? await verify(session, checked.inputs as I, checked.unknown, olds) : []),
        ...(await verifyReferences(session, checked.inputs as Row, checked.unknown, references, olds)),
      ]);
      return failures.length ? reported(failures) : { inputs: checked.inputs as Row };
    },
    async diff(id, olds, news) {
      const d = b.diff(id, olds as O, news as I);
      // Console lines reach the engine from both doors, on the resource (client/engineLog.ts); pulumi.log would not.
      for (const warning of d.warnings) console.log(`vplatform: ${b.token} ${id}: ${warning}`);
      return { changes: d.changes, replaces: d.replaces, deleteBeforeReplace: d.deleteBeforeReplace };
    },
    async create(session, inputs) {
      const marked = withGenerationMarker(inputs, shape);
      // The row is tagged with its generation's marker; state records the resource's own.
      const recorded = (bag: Row) =>
        MARKER_INPUT in bag && MARKER_INPUT in inputs ? { ...bag, [MARKER_INPUT]: inputs[MARKER_INPUT] } : bag;
      try {
        const created = await within(ownLimit(inputs, "create"), () => inEngineSlot(session, () => b.create(session, marked as I)));
        return { id: created.id, outs: plainJson(recorded(created.outs)) };
      } catch (err) {
        if (err instanceof PartialCreateError) {
          Object.assign(err.properties, recorded(err.properties));
          throw err;
        }
        throw explained(err, acts ? "action" : "create", describe(b.token, inputs));
      }
    },
    async read(session, id, props) {
      const live = await within(READ_LIMIT, () => session.reading(b.refreshListing, () => b.read(session, id, props as O))).catch(
        (err: unknown) => {
          throw explained(err, "read", describe(b.token, props, id));
        },
      );
      if (!live) return { id: "", props: {} };
      if (Object.keys(props).length > 0) {
        // The bookkeeping inputs (create marker, ...) are no platform values: they stay as recorded, never drift.
        const recorded = Object.fromEntries(HIDDEN_INPUTS.filter((k) => props[k] !== undefined).map((k) => [k, props[k]]));
        const keep = (bag: Row) => ({ ...bag, ...recorded });
        return { id, props: plainJson(keep(live.outs)), inputs: plainJson(keep(live.inputs)) };
      }
      // Imported: recorded as `check` would normalize the same declaration, so the next preview shows no change;
      // a platform value the schema refuses (e.g. "" for an unset address) stays undeclared, and so does an
      // empty secret (unset: the generated SDKs send none for "", which would otherwise be a change).
      // What the platform never answers stays unknown: one line per field says so and what to do.
      for (const warning of importWarnings(shape, b.outputs)) console.log(`vplatform: ${b.token} ${id}: ${warning}`);
      const declarable = (k: string, v: unknown) => shape[k]?.safeParse(v).success !== false && !(v === "" && fieldMeta(shape[k])?.secret);
      const valid = Object.fromEntries(Object.entries(live.inputs).filter(([k, v]) => declarable(k, v)));
      const checked = checkInputs(b.schema, valid);
      // A write-only input the platform did not answer stays undeclared: its default would claim what the platform may not hold.
      const unanswered = (k: string) => fieldMeta(shape[k])?.writeOnly === true && !(k in valid);
      const inputs = Object.fromEntries(Object.entries(checked.ok ? (checked.inputs as Row) : valid).filter(([k]) => !unanswered(k)));
      const computed = Object.fromEntries(Object.entries(live.outs).filter(([k]) => !(k in shape)));
      return { id, props: plainJson({ ...computed, ...inputs }), inputs: plainJson(inputs) };
    },
    async update(session, id, olds, news) {
      try {
        return plainJson(
          await within(ownLimit(news, "update"), () => inEngineSlot(session, () => b.update(session, id, olds as O, news as I))),
        );
      } catch (err) {
        throw explained(err, acts ? "action" : "update", describe(b.token, news, id));
      }
    },
    async delete(session, id, props) {
      try {
        await within(ownLimit(props, "delete"), () => inEngineSlot(session, () => b.delete(session, id, props as O)));
      } catch (err) {
        throw explained(err, "delete", describe(b.token, props, id));
      }
    },
  };
}

/** A resource's provider object for the dynamic-provider host, with the operations it runs. */
/**
 * `provider` is the door itself: state written by 0.1.0 from a linked checkout records a closure that loads
 * `require("vplatform/provider/<file>").provider`, and `vplatform/provider/*` is the dynamic entry module.
 */
export type DynamicDoor = Required<DynamicProvider> & { operations: ResourceOperations; readonly provider: DynamicDoor };

/** The dynamic door of a resource, serving it with the dynamic sessions. */
export function defineProvider<I extends Row, O extends Row>(b: ResourceBehaviour<I, O>): DynamicDoor {
  return dynamicDoor(resourceOperations(b), dynamicSessions);
}

/** The dynamic door: the runtime's `__provider` property stays out of the behaviour; each call runs in its type's session. */
export function dynamicDoor(ops: ResourceOperations, sessions: SessionRegistry): DynamicDoor {
  const session = () => sessions.sessionOf(ops.token);
  return {
    operations: ops,
    get provider() {
      return this;
    },
    async configure(req) {
      watchEngineOnce();
      showLinesOnResourcesOnce();
      keepYoungGenerationSmall();
      dropHostErrorEchoesOnce();
      sessions.configure(ops.token, (key) => req.config.get(key));
    },
    async check(olds, news) {
      return ops.check(session(), withoutProvider(news), withoutProvider(olds ?? {}));
    },
    diff: (id, olds, news) => ops.diff(id, withoutProvider(olds), withoutProvider(news)),
    async create(inputs) {
      try {
        return await ops.create(session(), withoutProvider(inputs));
      } catch (err) {
        // The error path skips the runtime's copy of __provider into the state;
        // without it refresh and destroy of the recorded resource could not run.
        if (err instanceof PartialCreateError) err.properties.__provider = inputs.__provider;
        throw err;
      }
    },
    read: (id, props) => ops.read(session(), id, withoutProvider(props ?? {})),
    async update(id, olds, news) {
      return { outs: await ops.update(session(), id, withoutProvider(olds), withoutProvider(news)) };
    },
    delete: (id, props) => ops.delete(session(), id, withoutProvider(props)),
  };
}

/** "Drive 'os' (key 12)": what an error message is about. */
function describe(token: string, inputs: Record<string, unknown>, id?: string): string {
  const name = typeof inputs.name === "string" && inputs.name ? ` '${inputs.name}'` : "";
  return `${token}${name}${id ? ` (key ${id})` : ""}`;
}

/** The time limit of an operation: its seconds, and its name as the user sets it (for messages). */
interface Limit {
  seconds: number;
  name: string;
}

/** Check and read take no `timeouts` entry: they run under these (as long as a create may take by default). */
const CHECK_LIMIT: Limit = { seconds: DEFAULT_TIMEOUTS.create, name: "vplatform's check limit" };
const READ_LIMIT: Limit = { seconds: DEFAULT_TIMEOUTS.create, name: "vplatform's read limit" };

/** A create, update or delete runs under its resource's `timeouts.<operation>`. */
function ownLimit(bag: Row, operation: "create" | "update" | "delete"): Limit {
  const given = Number(resolveTimeouts(bag.timeouts as Partial<OperationTimeouts> | undefined)[operation]);
  return { seconds: Number.isFinite(given) && given > 0 ? given : DEFAULT_TIMEOUTS[operation], name: `timeouts.${operation}` };
}

/**
 * Runs one operation under its deadline: the engine's customTimeouts when the
 * door set them (they beat the `timeouts` input), else its own limit. The
 * client retries and waits on the request budget or a 429 within it.
 */
function within<T>(limit: Limit, work: () => Promise<T>): Promise<T> {
  const engine = currentDeadline();
  return withDeadline(engine?.bindsWaits ? engine : deadlineIn(limit.seconds, limit.name), work);
}

function withoutProvider(bag: Record<string, unknown>): Record<string, unknown> {
  const { __provider: _ignored, ...rest } = bag;
  return rest;
}

/**
 * Thrown when a create got as far as making the row but could neither finish
 * nor undo it: Pulumi records the resource (with these properties) as
 * partially created, so the next `up` continues instead of leaking the row.
 */
export class PartialCreateError extends Error {
  /** What the engine prints of the failure (its "N errors occurred"): the message, with its next step. */
  readonly reasons: string[];

  constructor(
    /** What happened, starting "vplatform: ". */
    happened: string,
    readonly id: string,
    readonly properties: Row & { __provider?: unknown },
    /** What the next `pulumi up` does about it, or what the user must do first. */
    next = "the resource is recorded as partially created; the next `pulumi up` continues from there",
  ) {
    super(`${happened}. Next: ${next}`);
    this.name = "PartialCreateError";
    this.reasons = [this.message];
  }
}
