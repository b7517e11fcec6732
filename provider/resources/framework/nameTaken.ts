import type { Session } from "../../reconcile/session";
import { hasTag, withGenerationMarker } from "../../reconcile/createMarker";
import { type Row, rowsWhere, str } from "../../reconcile/platform";
import type { Shape } from "../../schemas/common";
import type { CheckFailure } from "./checkInputs";
import { checkListing } from "./checkListing";
import { MARKER_INPUT } from "../../schemas/hiddenInputs";

/** A kind whose names are unique on the platform, and how to tell its rows. */
export interface NameTakenRule {
  table: string;
  /** For messages: "VM", "vnet". */
  noun: string;
  shape: Shape;
  /** The columns of the run's listing of the table (see checkListing); `$key` and `name` among them. */
  listedFields: string;
  /** Rows of the table that are not of the kind (a VM's snapshots): no clash. */
  notOfKind?: (row: Row) => boolean;
  /** Rows carry the create marker in `description`: one tagged with this resource's marker is its own (not a clash). */
  marked: boolean;
}

/**
 * A new row named like one already on the platform would fail the `up` with a
 * name conflict half-way through; the preview refuses it instead. A name the
 * run's copy of the table (see checkListing) does not hold is free without a
 * request of its own; one it holds is looked up afresh. Not refused: a name
 * this resource already had (it manages that row), `adopt`, and a row tagged
 * with this resource's own create marker (an interrupted earlier run made it;
 * the create takes it over). A door that does not pass the last run's inputs
 * (`olds` undefined) cannot tell a new row from one it manages: then the
 * create's own name-conflict error remains the guard.
 */
export async function verifyNameFree(
  rule: NameTakenRule,
  api: Session,
  inputs: Row,
  unknown: Set<string>,
  olds: Row | undefined,
): Promise<CheckFailure[]> {
  const name = inputs.name;
  if (olds === undefined || typeof name !== "string" || unknown.has("name") || inputs.adopt || olds.name === name) return [];
  const ofKind = (row: Row) => !rule.notOfKind?.(row);
  const listing = await checkListing(api, rule.table, rule.listedFields);
  if (listing && !listing.some((r) => r.name === name && ofKind(r))) return [];
  const rows = (
    await rowsWhere(api, rule.table, "name", name, rule.marked ? `${rule.listedFields},description` : rule.listedFields)
  ).filter(ofKind);
  const marker = rule.marked ? withGenerationMarker(inputs, rule.shape)[MARKER_INPUT] : undefined;
  const taken = rows.find((r) => !(typeof marker === "string" && hasTag(r, marker)));
  if (!taken) return [];
  const key = str(taken.$key);
  return [
    {
      property: "name",
      reason:
        `name: a ${rule.noun} named '${name}' already exists on the platform (key ${key}) and this stack did not create it; ` +
        `set adopt: true (or adopt: '${key}') to manage it, or choose another name`,
    },
  ];
}
