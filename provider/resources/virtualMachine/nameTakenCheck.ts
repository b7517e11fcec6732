import type { Session } from "../../reconcile/session";
import { MARKER_INPUT, hasTag, withGenerationMarker } from "../../reconcile/createMarker";
import { type Row, rowsWhere, str } from "../../reconcile/platform";
import { toBoolean } from "../../schemas/normalize";
import type { CheckFailure } from "../framework/checkInputs";
import { VM_CHECK_FIELDS, checkCopy } from "../framework/checkCopy";
import { VM_TABLE, virtualMachineShape } from "./schema";

/**
 * A new VM named like a VM already on the platform would fail the `up` with a
 * name conflict half-way through; the preview refuses it instead. A name the
 * run's copy of the VM names (see checkCopy) does not hold is free without a
 * request of its own; one it holds is looked up afresh. Not refused: a name
 * this resource already had (it manages that row), `adopt`, and a row tagged
 * with this resource's own create marker (an interrupted earlier run made it;
 * the create takes it over). A door that does not pass the last run's inputs
 * (`olds` undefined) cannot tell a new VM from one it manages: then the
 * create's own name-conflict error remains the guard.
 */
export async function verifyVmNameFree(api: Session, inputs: Row, unknown: Set<string>, olds: Row | undefined): Promise<CheckFailure[]> {
  const name = inputs.name;
  if (olds === undefined || typeof name !== "string" || unknown.has("name") || inputs.adopt || olds.name === name) return [];
  const copy = await checkCopy(api, VM_TABLE, VM_CHECK_FIELDS);
  if (copy && !copy.some((r) => r.name === name && toBoolean(r.is_snapshot) !== true)) return [];
  const rows = (await rowsWhere(api, VM_TABLE, "name", name, "$key,name,description,is_snapshot")).filter(
    (r) => toBoolean(r.is_snapshot) !== true,
  );
  const marker = withGenerationMarker(inputs, virtualMachineShape)[MARKER_INPUT];
  const taken = rows.find((r) => !(typeof marker === "string" && hasTag(r, marker)));
  if (!taken) return [];
  return [
    {
      property: "name",
      reason:
        `name: a VM named '${name}' already exists on the platform (key ${str(taken.$key)}) and this stack did not create it; ` +
        `set adopt: true (or adopt: '${str(taken.$key)}') to manage it, or choose another name`,
    },
  ];
}
