import type { z } from "zod";
import { deviceInputsSchema, deviceOutputs } from "./device";
import { driveInputsSchema } from "./drive";
import { nicInputsSchema } from "./nic";
import type { OutputDecls } from "./outputs";
import { virtualMachineInputsSchema, virtualMachineOutputs } from "./virtualMachine";
import { vmPowerInputsSchema, vmPowerOutputs } from "./vmPower";
import { vmSnapshotInputsSchema, vmSnapshotOutputs } from "./vmSnapshot";
import { vnetInputsSchema } from "./vnet";

export interface ResourceSchema {
  token: string;
  table: string;
  description: string;
  inputs: z.ZodObject;
  /** Computed outputs besides the echoed inputs and `id`. */
  outputs: OutputDecls;
}

/** Every resource of the provider: drives check(), schema.json and the environment loader. */
export const resourceSchemas: ResourceSchema[] = [
  {
    token: "VirtualMachine",
    table: "vms",
    description: "A virtual machine. `id` is the VM key; its hardware attaches to `machineKey`.",
    inputs: virtualMachineInputsSchema,
    outputs: virtualMachineOutputs,
  },
  { token: "Drive", table: "machine_drives", description: "A drive of a VM's machine.", inputs: driveInputsSchema, outputs: {} },
  { token: "Nic", table: "machine_nics", description: "A network interface of a VM's machine.", inputs: nicInputsSchema, outputs: {} },
  {
    token: "Device",
    table: "machine_devices",
    description: "A passthrough device (GPU, PCI, USB, TPM) of a VM's machine.",
    inputs: deviceInputsSchema,
    outputs: deviceOutputs,
  },
  { token: "Vnet", table: "vnets", description: "A virtual network.", inputs: vnetInputsSchema, outputs: {} },
  {
    token: "VmSnapshot",
    table: "machine_snapshots",
    description: "A snapshot of a VM; changing restoreTrigger restores the VM to it.",
    inputs: vmSnapshotInputsSchema,
    outputs: vmSnapshotOutputs,
  },
  {
    token: "VmPower",
    table: "vms",
    description:
      "The power state of a VM as its own resource, ordered after others with dependsOn: e.g. start a VM only once its passthrough devices are attached (no start-stop-start). Leave the VM's own powerState unset then; deleting this resource leaves the VM as it is.",
    inputs: vmPowerInputsSchema,
    outputs: vmPowerOutputs,
  },
];
