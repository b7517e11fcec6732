import { diffFields, named, type ResourceDiff } from "../../plan/diff";
import { createRow, deleteRow, readRow, updateRow, type RowMapping } from "../../reconcile/automation/rows";
import { markerOf } from "../../reconcile/createMarker";
import { type Row, str } from "../../reconcile/platform";
import { quoteLiteral } from "../../client/query-string";
import type { Session } from "../../reconcile/session";
import type { Problem } from "../../schemas/automationRules";
import { fieldMeta, type Shape } from "../../schemas/common";
import { assertAdoptable, assertRecoveredMatches, findAdoptable } from "./adoption";
import type { CheckFailure } from "./checkInputs";
import { declaredFields } from "./declaredFields";
import type { ResourceBehaviour } from "./defineProvider";
import { resolveTimeouts } from "./operationTimeouts";
import type { OperationTimeouts } from "../../schemas/timeouts";

/** Inputs every automation row may carry besides its own fields. */
type RowInputs = Row & { adopt?: boolean | string; timeouts?: Partial<OperationTimeouts> };

/** What changing the row does, from its shape's `onChange` (a unique name replaced under the same name deletes first). */
export function diffRow(shape: Shape, m: RowMapping<unknown>, olds: Row, news: Row): ResourceDiff {
  return diffFields(shape, olds, news, { what: named(m.what, news), namesUniqueOnPlatform: m.namesUniqueOnPlatform });
}

/** The changed fields a PUT carries: those with a column, neither set by an action of their own nor dropped from the program. */
export function changedColumns(shape: Shape, d: ResourceDiff): string[] {
  return d.updates.filter((f) => {
    const meta = fieldMeta(shape[f]);
    return meta?.api !== undefined && meta.onChange !== "action" && !d.noApiCall.includes(f);
  });
}

/** The problems of a rule that reads, as check() reports them (the field path, dotted). */
export const asFailures = (problems: readonly Problem[]): CheckFailure[] =>
  problems.map((p) => ({ property: p.path.map(String).join("."), reason: p.message }));

/**
 * The behaviour of a resource that is one row of an automation table (phase 1's row operations): create
 * through `createRow` (a lost answer never makes a second row), or adopt an existing row; read the declared
 * fields back; PUT the changed columns; delete (a row already gone is fine).
 */
export function rowBehaviour<I extends RowInputs>(
  shape: Shape,
  m: RowMapping<I>,
): Pick<ResourceBehaviour<I, I>, "diff" | "create" | "read" | "update" | "delete"> {
  const what = (inputs: Row) => named(m.what, inputs);
  const live = async (api: Session, key: string, declared?: Row) => (await readRow(api, m, key, declared as Partial<I>))?.inputs;
  return {
    diff: (_id, olds, news) => diffRow(shape, m, olds, news),

    async create(api, inputs) {
      if (inputs.adopt !== undefined && inputs.adopt !== false) {
        const key = await findAdoptable(what(inputs), inputs.adopt, {
          byKey: async (k) => ((await live(api, k)) ? k : undefined),
          byName: async () => {
            const [row] = await api.list(m.table, { filter: `name eq ${quoteLiteral(String(inputs.name))}`, fields: "$key", limit: 1 });
            return row ? str(row.$key) : undefined;
          },
        });
        assertAdoptable(what(inputs), inputs, (await live(api, key, inputs)) ?? {});
        return { id: key, outs: inputs };
      }
      const budgetMs = resolveTimeouts(inputs.timeouts).create * 1000;
      const created = await createRow(api, m, inputs, { marker: markerOf(inputs), budgetMs });
      if (created.recovered)
        assertRecoveredMatches(what(inputs), inputs, (await live(api, created.key, inputs)) ?? {}, created.key, inputs);
      return { id: created.key, outs: inputs };
    },

    async read(api, id, olds) {
      const found = await live(api, id, declaredFields(olds));
      if (!found) return undefined;
      const inputs = { ...olds, ...found } as I;
      return { outs: inputs, inputs };
    },

    async update(api, id, olds, news) {
      await updateRow(api, m, id, news, changedColumns(shape, diffRow(shape, m, olds, news)) as (keyof I & string)[]);
      return news;
    },

    delete: (api, id) => deleteRow(api, m.table, id),
  };
}
