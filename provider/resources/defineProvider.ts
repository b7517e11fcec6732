import type * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import type { ResourceDiff } from "../plan/diff";
import { Row } from "../reconcile/platform";
import { configureRuntime } from "../reconcile/runtime";
// The real API client is the default; unit tests install fakes with setPlatformApiFactory.
import "../reconcile/platformClient";
import { CheckFailure, checkInputs, plainJson } from "./checkInputs";
import { withOperationDeadline } from "../client/operationDeadline";
import { resolveTimeouts } from "./operationTimeouts";

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
  verify?(inputs: I, unknown: Set<string>, olds: Row): Promise<CheckFailure[]>;
  /** Pure (no requests): `pulumi preview` calls it. Its warnings are printed. */
  diff(id: string, olds: O, news: I): ResourceDiff;
  create(inputs: I): Promise<Created<O>>;
  /** Undefined when the object no longer exists. */
  read(id: string, olds: O): Promise<ReadBack<I, O> | undefined>;
  update(id: string, olds: O, news: I): Promise<O>;
  delete(id: string, olds: O): Promise<void>;
}

export function defineProvider<I extends Row, O extends Row>(b: ResourceBehaviour<I, O>): DynamicProvider {
  return {
    async configure(req) {
      configureRuntime((key) => req.config.get(key));
    },
    async check(olds, news) {
      const checked = checkInputs(b.schema, news);
      if (!checked.ok) return { failures: checked.failures };
      const verify = b.verify;
      const failures = verify ? await within(news, "create", () => verify(checked.inputs as I, checked.unknown, withoutProvider(olds ?? {}))) : [];
      return failures.length ? { failures } : { inputs: checked.inputs };
    },
    async diff(id, olds, news) {
      const d = b.diff(id, withoutProvider(olds) as O, withoutProvider(news) as I);
      // The engine shows a dynamic provider's console output, not pulumi.log.
      for (const warning of d.warnings) console.log(`vplatform: ${b.token} ${id}: ${warning}`);
      return { changes: d.changes, replaces: d.replaces, deleteBeforeReplace: d.deleteBeforeReplace };
    },
    async create(inputs) {
      try {
        const created = await within(inputs, "create", () => b.create(withoutProvider(inputs) as I));
        return { id: created.id, outs: plainJson(created.outs) };
      } catch (err) {
        // The error path skips the runtime's copy of __provider into the state;
        // without it refresh and destroy of the recorded resource could not run.
        if (err instanceof PartialCreateError) err.properties.__provider = inputs.__provider;
        throw err;
      }
    },
    async read(id, props) {
      const live = await within(props ?? {}, "create", () => b.read(id, withoutProvider(props ?? {}) as O));
      if (!live) return { id: "", props: {} };
      return { id, props: plainJson(live.outs), inputs: plainJson(live.inputs) };
    },
    async update(id, olds, news) {
      return { outs: plainJson(await within(news, "create", () => b.update(id, withoutProvider(olds) as O, withoutProvider(news) as I))) };
    },
    async delete(id, props) {
      await within(props, "delete", () => b.delete(id, withoutProvider(props) as O));
    },
  };
}

/** Runs one operation with the deadline its resource's `timeouts` give (waits on the request budget respect it). */
function within<T>(bag: Record<string, unknown>, kind: "create" | "delete", work: () => Promise<T>): Promise<T> {
  const seconds = Number(resolveTimeouts(bag.timeouts as Parameters<typeof resolveTimeouts>[0])[kind]);
  return withOperationDeadline(Number.isFinite(seconds) && seconds > 0 ? seconds : resolveTimeouts(undefined)[kind], kind, work);
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
