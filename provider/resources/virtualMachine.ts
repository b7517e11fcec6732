import {
  VIRTUAL_MACHINE_READ_FIELDS,
  VirtualMachineInputs,
  fromVirtualMachineApiRow,
  toVirtualMachineApiBody,
  virtualMachineInputsSchema,
} from "../schemas/virtualMachine";
import { MachineStatus, readMachineStatus } from "../reconcile/machineStatus";
import { PlatformApi, Row, errorStatus, errorText, str } from "../reconcile/platform";
import { PowerCyclePolicy, VmRef, applyWithPowerCycle } from "../reconcile/power";
import { machinePolicies, platformApi, withMachineLock } from "../reconcile/runtime";
import { OperationTimeouts } from "../reconcile/timeouts";
import { CloneSource, LiveVm, deleteVm, enforcePower, findVmByName, insertVm, powerTimeouts, readVm, setVmNote } from "../reconcile/vm";
import { assertAdoptable } from "./adoption";
import { PartialCreateError, defineProvider } from "./defineProvider";
import { changedBody } from "./fieldDiff";
import { resolveTimeouts } from "./operationTimeouts";
import { planByRules } from "./plans";
import { schemaFields } from "./schemaFields";

type PowerState = "running" | "stopped";

export type VirtualMachineOutputs = VirtualMachineInputs & {
  machineKey: string;
  /** Live machine status at the last create/update/refresh (running, stopped, ...). */
  status: string;
  running: boolean;
};

/** VM settings that take effect only after a power cycle (spec: CPU and RAM always; these usually). */
const POWER_CYCLE_FIELDS = ["cpu_cores", "ram", "nested_virtualization", "disable_hypervisor", "uefi", "secure_boot"];


function outputs(inputs: VirtualMachineInputs, vm: VmRef, status: MachineStatus): VirtualMachineOutputs {
  return { ...inputs, machineKey: vm.machineKey, status: status.status, running: status.running };
}

function remember(machineKey: string, policy: PowerCyclePolicy | undefined) {
  if (machineKey && policy) machinePolicies.set(machineKey, policy);
}

/** The live VM expressed as inputs; provider-only fields come from the last known inputs. */
function liveInputs(live: LiveVm, olds: VirtualMachineOutputs): VirtualMachineInputs {
  const { machineKey: _k, status: _s, running: _r, ...declared } = olds;
  const inputs = { ...declared, ...fromVirtualMachineApiRow(live.row, declared) } as VirtualMachineInputs;
  // Power is managed only when declared; then the live machine status is the truth.
  if (declared.powerState !== undefined) inputs.powerState = live.status.running ? "running" : "stopped";
  return inputs;
}

async function resolveCloneSource(api: PlatformApi, inputs: VirtualMachineInputs): Promise<CloneSource | undefined> {
  const clone = inputs.cloneFrom;
  if (!clone) return undefined;
  const src = await api.get("vms", clone.vm, "$key,machine,name");
  if (!src) throw new Error(`vplatform: cloneFrom.vm: no VM with key '${clone.vm}'`);
  return { vmKey: str(src.$key), machineKey: str(src.machine), name: str(src.name), params: cloneParams(clone) };
}

/** vm_actions clone params: string booleans, as the spec gives them. */
function cloneParams(c: NonNullable<VirtualMachineInputs["cloneFrom"]>): Row {
  const flag = (v: boolean | undefined) => (v === undefined ? undefined : v ? "true" : "false");
  const params: Row = {
    description: c.description,
    quiesce: flag(c.quiesce),
    preserve_macs: flag(c.preserveMacs),
    preserve_device_uuids: flag(c.preserveDeviceUuids),
    cluster: c.cluster,
  };
  return Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined));
}

/** Undo a create that failed after the row existed; if even that fails, let Pulumi record the VM. */
async function rollback(api: PlatformApi, vm: VmRef, inputs: VirtualMachineInputs, t: OperationTimeouts, cause: unknown): Promise<never> {
  console.log(`vplatform: creating VM '${vm.name}' failed after the VM existed (${errorText(cause)}); deleting it again`);
  try {
    await deleteVm(api, vm, await readMachineStatus(api, vm.machineKey), t);
  } catch (undoErr) {
    throw new PartialCreateError(
      `vplatform: creating VM '${vm.name}' failed (${errorText(cause)}) and deleting it again failed too (${errorText(undoErr)}); ` +
        `it is recorded as partially created and the next update continues from there`,
      vm.vmKey,
      { ...inputs, machineKey: vm.machineKey, powerState: "stopped", status: "unknown", running: false },
      [errorText(cause)],
    );
  }
  throw cause;
}

export const provider = defineProvider<VirtualMachineInputs, VirtualMachineOutputs>({
  token: "VirtualMachine",
  schema: virtualMachineInputsSchema,
  diff(_id, olds, news) {
    remember(olds.machineKey, news.powerCyclePolicy as PowerCyclePolicy);
    return planByRules(olds, news, { fields: schemaFields(virtualMachineInputsSchema), replaceOn: ["cloneFrom"], uniqueName: true });
  },

  async create(inputs) {
    const api = platformApi();
    const t = resolveTimeouts(inputs.timeouts);
    const fields = VIRTUAL_MACHINE_READ_FIELDS;
    let vm: VmRef;
    let adopted = false;
    let status: MachineStatus = { running: false, status: "stopped" }; // a new VM starts stopped
    if (inputs.adopt) {
      const live = await findVmByName(api, inputs.name, fields);
      if (!live) throw new Error(`vplatform: adopt: no VM named '${inputs.name}'`);
      assertAdoptable(`VM '${inputs.name}'`, inputs, fromVirtualMachineApiRow(live.row, inputs));
      ({ ref: vm, status } = live);
      adopted = true;
    } else {
      try {
        const source = await resolveCloneSource(api, inputs);
        const insert = () => insertVm(api, toVirtualMachineApiBody(inputs), source, t);
        // A template clones one copy at a time (a second clone meanwhile is "operation in progress").
        vm = source ? await withMachineLock(source.machineKey, insert) : await insert();
      } catch (err) {
        if (errorStatus(err) !== 409 || !/exists|in use/i.test(errorText(err))) throw err;
        throw new Error(`vplatform: a VM named '${inputs.name}' already exists; set adopt: true to take it over (${errorText(err)})`);
      }
    }
    remember(vm.machineKey, inputs.powerCyclePolicy as PowerCyclePolicy);
    return withMachineLock(vm.machineKey, async () => {
      try {
        if (inputs.note !== undefined && !adopted) await setVmNote(api, vm, String(inputs.note));
        const desired = inputs.powerState as PowerState | undefined;
        await enforcePower(api, vm, status, desired, t);
        return { id: vm.vmKey, outs: outputs(inputs, vm, statusAfter(desired, status)) };
      } catch (err) {
        if (adopted) throw err;
        return rollback(api, vm, inputs, t, err);
      }
    });
  },

  async read(id, olds) {
    const live = await readVm(platformApi(), id, VIRTUAL_MACHINE_READ_FIELDS);
    if (!live) return undefined;
    remember(live.ref.machineKey, olds.powerCyclePolicy as PowerCyclePolicy);
    const inputs = liveInputs(live, olds);
    return { outs: outputs(inputs, live.ref, live.status), inputs };
  },

  async update(id, olds, news) {
    const api = platformApi();
    const t = resolveTimeouts(news.timeouts);
    const vm: VmRef = { vmKey: id, machineKey: olds.machineKey, name: news.name };
    remember(vm.machineKey, news.powerCyclePolicy as PowerCyclePolicy);
    return withMachineLock(vm.machineKey, async () => {
      let status = await readMachineStatus(api, vm.machineKey);
      const desired = news.powerState as PowerState | undefined;
      // Going to stopped anyway: stop first, then changes need no cycle.
      if (desired === "stopped") {
        await enforcePower(api, vm, status, desired, t);
        status = statusAfter(desired, status);
      }
      const body = changedBody(toVirtualMachineApiBody(olds, "update"), toVirtualMachineApiBody(news, "update"));
      if (Object.keys(body).length > 0) {
        const reasons = Object.keys(body).filter((f) => POWER_CYCLE_FIELDS.includes(f));
        await applyWithPowerCycle(
          api,
          vm,
          { policy: (news.powerCyclePolicy ?? "restart") as PowerCyclePolicy, reasons, running: status.running, timeouts: powerTimeouts(t) },
          () => api.update("vms", id, body),
        );
      }
      if (news.note !== undefined && news.note !== olds.note) await setVmNote(api, vm, String(news.note));
      // A restart above leaves the power as it was, so `status` still holds.
      if (desired === "running") await enforcePower(api, vm, status, desired, t);
      return outputs(news, vm, statusAfter(desired, status));
    });
  },

  async delete(id, olds) {
    const api = platformApi();
    const t = resolveTimeouts(olds.timeouts);
    await withMachineLock(olds.machineKey, async () => {
      const live = await readVm(api, id, "name");
      if (!live) return; // already gone
      await deleteVm(api, live.ref, live.status, t);
    });
  },
});

/** Once power was enforced the state is known without another request. */
function statusAfter(desired: PowerState | undefined, before: MachineStatus): MachineStatus {
  if (desired === "running") return { running: true, status: "running" };
  if (desired === "stopped") return { running: false, status: "stopped" };
  return before;
}
