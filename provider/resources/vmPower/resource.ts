import type { Row } from "../../reconcile/platform";
import type { Session } from "../../reconcile/session";
import { diffFields, type ResourceDiff } from "../../plan/diff";
import { type MachineStatus, readMachineStatus } from "../../reconcile/machineStatus";
import { knownOwner, knownOwnerOfVm } from "../../reconcile/machineOwners";
import { enforcePower, readVm } from "../virtualMachine/platform";
import { withoutOutputs, type OutputValues } from "../../schemas/outputs";
import { type VmPowerInputs, vmPowerInputsSchema, vmPowerOutputs, vmPowerShape } from "./schema";
import { defineResource } from "../framework/defineResource";
import { resolveTimeouts } from "../framework/operationTimeouts";
import { VM_TABLE } from "../../schemas/tables";
import { START_AFTER_HARDWARE_INPUT } from "../../schemas/hiddenInputs";

type Outputs = VmPowerInputs & OutputValues<typeof vmPowerOutputs>;

const outputs = (inputs: VmPowerInputs, machineKey: string, s: MachineStatus): Outputs => ({
  ...inputs,
  machineKey,
  status: s.status,
  running: s.running,
});

/** Brings the VM to the declared state; the status is read under the machine's lock, after every other change to it. */
async function enforceDeclared(api: Session, inputs: VmPowerInputs): Promise<Outputs> {
  // Keys and name never change: a VM this process knows needs no look-up (its power is read below, live).
  const vm = knownOwnerOfVm(api, inputs.vm) ?? (await readVm(api, inputs.vm, "name"));
  if (!vm) throw new Error(`vplatform: vm: no VM with key '${inputs.vm}'`);
  return api.withMachineLock(vm.ref.machineKey, async () => {
    // A status this process knows that calls for the action is not read again: the action's own 409 says if the
    // machine got there meanwhile. One that says nothing is to do is read live, so nothing is skipped on its word.
    const known = knownOwner(api, vm.ref.machineKey)?.status;
    const live = known && known.running !== (inputs.state === "running") ? known : await readMachineStatus(api, vm.ref.machineKey);
    await enforcePower(api, vm.ref, live, inputs.state, resolveTimeouts(inputs.timeouts));
    const after: MachineStatus = inputs.state === "running" ? { running: true, status: "running" } : { running: false, status: "stopped" };
    return outputs(inputs, vm.ref.machineKey, after);
  });
}

/** What changing a vmPower does: the preview's replacements, updates and warnings. */
export function diffVmPower(olds: Row, news: Row): ResourceDiff {
  return diffFields(vmPowerShape, olds, news, { what: `power of VM ${String(news.vm)}`, namesUniqueOnPlatform: false });
}

export const vmPower = defineResource<VmPowerInputs, Outputs>({
  token: "VmPower",
  table: VM_TABLE,
  description:
    "The power state of a VM as its own resource, ordered after others with dependsOn: e.g. start a VM only once its passthrough devices are attached (no start-stop-start). Leave the VM's own powerState unset then; deleting this resource leaves the VM as it is.",
  outputs: vmPowerOutputs,
  schema: vmPowerInputsSchema,
  sdk: { createMarker: false },
  // Its reads are of its VM's row.
  refreshListing: VM_TABLE,
  diff: (_id, olds, news) => diffVmPower(olds, news),

  async create(api, inputs) {
    const outs = await enforceDeclared(api, inputs);
    return { id: inputs.vm, outs };
  },

  async read(api, id, olds) {
    // The SDK's start step of a VM declared running: the VM's own powerState reports its power drift, once.
    if ((olds as Record<string, unknown>)[START_AFTER_HARDWARE_INPUT] === true)
      return { outs: olds, inputs: withoutOutputs(olds, vmPowerOutputs) };
    const live = await readVm(api, olds.vm ?? id, "name");
    if (!live) return undefined;
    const declared = withoutOutputs(olds, vmPowerOutputs);
    // Imported (nothing declared yet): the id is the VM key.
    const inputs = { ...declared, vm: declared.vm ?? id, state: live.status.running ? ("running" as const) : ("stopped" as const) };
    return { outs: outputs(inputs, live.ref.machineKey, live.status), inputs };
  },

  update: (api, _id, _olds, news) => enforceDeclared(api, news),

  // No longer declaring a power state leaves the VM as it is, like dropping a VM's powerState.
  async delete() {},
});
