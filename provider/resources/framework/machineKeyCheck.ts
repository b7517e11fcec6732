import { rowsWhere, str } from "../../reconcile/platform";
import { perSession, type Session } from "../../reconcile/session";
import { knownOwner, madeByThisProcess } from "../../reconcile/machineOwners";
import type { CheckFailure } from "./checkInputs";
import { VM_CHECK_FIELDS, rowExists } from "./checkListing";
import { VM_TABLE } from "../../schemas/tables";

/** Machine keys confirmed in this session (a preview checks many drives of one VM). */
const knownMachines = perSession(() => new Set<string>());
const CHECK_FIELDS = "$key,name,machine";

/**
 * Hardware rows take the MACHINE key; the VM key is a different number and
 * mixing them up attaches hardware to the wrong VM or fails late. One
 * read-only request tells the two apart and names the right value.
 */
export async function verifyMachineKey(api: Session, machine: string): Promise<CheckFailure[]> {
  const confirmed = knownMachines(api);
  // A machine this session created exists (the run's listing of the VMs, taken at the first check, predates it).
  if (confirmed.has(machine) || knownOwner(api, machine) || madeByThisProcess(api, machine)) return [];
  if (!/^\d+$/.test(machine)) return []; // the schema reports malformed keys
  // The usual case (a right key) is vouched for by the run's listing of the VMs; a wrong one costs a look-up of what it is.
  if (await rowExists(api, VM_TABLE, "machine", machine, VM_CHECK_FIELDS)) {
    confirmed.add(machine);
    return [];
  }
  const [vm] = await rowsWhere(api, VM_TABLE, "$key", machine, CHECK_FIELDS);
  const reason = vm
    ? `'${machine}' is the VM key of VM '${str(vm.name)}'; hardware takes the machine key ('${str(vm.machine)}'): ` +
      "give the VM resource's machineKey output, not its id (TypeScript: `web.machineKey`; Pulumi YAML: `${web.machineKey}`)"
    : `no VM has machine key '${machine}'`;
  return [{ property: "machine", reason: `machine: ${reason}` }];
}
