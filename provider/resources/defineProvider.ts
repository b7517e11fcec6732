import type * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import type { ResourceDiff } from "../plan/diff";
import { Row } from "../reconcile/platform";
import { configureRuntime } from "../reconcile/runtime";
// The real API client is the default; unit tests install fakes with setPlatformApiFactory.
import "../reconcile/platformClient";
import { CheckFailure, checkInputs, plainJson } from "./checkInputs";

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
 * One resource's behaviour: every method gets validated, normalized inputs and
 * the previous outputs (which echo the inputs plus computed fields).
 */
export interface ResourceBehaviour<I extends Row, O extends Row> {
  token: string;
  schema: z.ZodType;
  /** Read-only checks that need the platform (never mutates); runs only on known fields. */
  verify?(inputs: I, unknown: Set<string>): Promise<CheckFailure[]>;
  /** Pure (no requests): `pulumi preview` calls it. Its warnings are printed. */
  diff(id: string, olds: O, news: I): ResourceDiff;
  create(inputs: I): Promise<Created<O>>;
  /** Undefined when the object no longer exists. */
  read(id: string, olds: O): Promise<ReadBack<I, O> | undefined>;
  update(id: string, olds: O, news: I): Promise<O>;
  delete(id: string, olds: O): Promise<void>;
}

/** Plain JSON in and out: what each door (dynamic provider, plugin) turns into its own protocol. */
export interface ResourceOperations {
  token: string;
  /** The zod input schema (schema.json's inputProperties are generated from it). */
  schema: z.ZodType;
  check(news: Row): Promise<{ inputs?: Row; failures?: CheckFailure[] }>;
  diff(id: string, olds: Row, news: Row): Promise<{ changes: boolean; replaces: string[]; deleteBeforeReplace: boolean }>;
  create(inputs: Row): Promise<{ id: string; outs: Row }>;
  /** `id` "" when the object no longer exists. Empty `props` (import, `.get()`): the whole live object. */
  read(id: string, props: Row): Promise<{ id: string; props: Row; inputs?: Row }>;
  update(id: string, olds: Row, news: Row): Promise<Row>;
  delete(id: string, props: Row): Promise<void>;
}

/** One implementation of a resource for both doors: no behaviour lives in a door only. */
export function resourceOperations<I extends Row, O extends Row>(b: ResourceBehaviour<I, O>): ResourceOperations {
  return {
    token: b.token,
    schema: b.schema,
    async check(news) {
      const checked = checkInputs(b.schema, news);
      if (!checked.ok) return { failures: checked.failures };
      const failures = b.verify ? await b.verify(checked.inputs as I, checked.unknown) : [];
      return failures.length ? { failures } : { inputs: checked.inputs as Row };
    },
    async diff(id, olds, news) {
      const d = b.diff(id, olds as O, news as I);
      // The engine shows a provider process's console output (a dynamic provider's pulumi.log goes nowhere).
      for (const warning of d.warnings) console.log(`vplatform: ${b.token} ${id}: ${warning}`);
      return { changes: d.changes, replaces: d.replaces, deleteBeforeReplace: d.deleteBeforeReplace };
    },
    async create(inputs) {
      const created = await b.create(inputs as I);
      return { id: created.id, outs: plainJson(created.outs) };
    },
    async read(id, props) {
      const live = await b.read(id, props as O);
      if (!live) return { id: "", props: {} };
      if (Object.keys(props).length > 0) return { id, props: plainJson(live.outs), inputs: plainJson(live.inputs) };
      // Imported: recorded as `check` would normalize the same declaration, so the next preview shows no change;
      // a platform value the schema refuses (e.g. "" for an unset address) stays undeclared.
      const shape = shapeOf(b.schema);
      const valid = Object.fromEntries(Object.entries(live.inputs).filter(([k, v]) => shape[k]?.safeParse(v).success !== false));
      const checked = checkInputs(b.schema, valid);
      const inputs = checked.ok ? (checked.inputs as Row) : valid;
      const computed = Object.fromEntries(Object.entries(live.outs).filter(([k]) => !(k in shape)));
      return { id, props: plainJson({ ...computed, ...inputs }), inputs: plainJson(inputs) };
    },
    async update(id, olds, news) {
      return plainJson(await b.update(id, olds as O, news as I));
    },
    async delete(id, props) {
      await b.delete(id, props as O);
    },
  };
}

/** The dynamic door: the runtime's `__provider` property stays out of the behaviour. */
export function defineProvider<I extends Row, O extends Row>(b: ResourceBehaviour<I, O>): DynamicProvider & { operations: ResourceOperations } {
  const ops = resourceOperations(b);
  return {
    operations: ops,
    async configure(req) {
      configureRuntime((key) => req.config.get(key));
    },
    async check(_olds, news) {
      return ops.check(withoutProvider(news));
    },
    diff: (id, olds, news) => ops.diff(id, withoutProvider(olds), withoutProvider(news)),
    async create(inputs) {
      try {
        return await ops.create(withoutProvider(inputs));
      } catch (err) {
        // The error path skips the runtime's copy of __provider into the state;
        // without it refresh and destroy of the recorded resource could not run.
        if (err instanceof PartialCreateError) err.properties.__provider = inputs.__provider;
        throw err;
      }
    },
    read: (id, props) => ops.read(id, withoutProvider(props ?? {})),
    async update(id, olds, news) {
      return { outs: await ops.update(id, withoutProvider(olds), withoutProvider(news)) };
    },
    delete: (id, props) => ops.delete(id, withoutProvider(props)),
  };
}

const shapeOf = (schema: z.ZodType) => (schema as unknown as { shape?: Record<string, z.ZodType> }).shape ?? {};

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
  constructor(
    message: string,
    readonly id: string,
    readonly properties: Row & { __provider?: unknown },
    readonly reasons: string[],
  ) {
    super(message);
    this.name = "PartialCreateError";
  }
}
