import { PlatformApi, str } from "../reconcile/platform";
import { CheckFailure } from "./checkInputs";

/** Machine keys confirmed in this process (a preview checks many drives of one VM). */
const knownMachines = new Set<string>();

/**
 * Hardware rows take the MACHINE key; the VM key is a different number and
 * mixing them up attaches hardware to the wrong VM or fails late. One
 * read-only request tells the two apart and names the right value.
 */
export async function verifyMachineKey(api: PlatformApi, machine: string): Promise<CheckFailure[]> {
  if (knownMachines.has(machine) || !/^\d+$/.test(machine)) return []; // the schema reports malformed keys
  const rows = await api.list("vms", {
    filter: `machine eq ${Number(machine)} or $key eq ${Number(machine)}`,
    fields: "$key,name,machine",
    limit: 2,
  });
  if (rows.some((r) => str(r.machine) === machine)) {
    knownMachines.add(machine);
    return [];
  }
  const vm = rows.find((r) => str(r.$key) === machine);
  const reason = vm
    ? `'${machine}' is the VM key of VM '${str(vm.name)}'; hardware takes the machine key — use ${str(vm.name)}.machineKey ('${str(vm.machine)}')`
    : `no VM has machine key '${machine}'`;
  return [{ property: "machine", reason: `machine: ${reason}` }];
}
