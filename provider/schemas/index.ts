import type { z } from "zod";
import { deviceInputsSchema } from "./device";
import { driveInputsSchema } from "./drive";
import { nicInputsSchema } from "./nic";
import { virtualMachineInputsSchema } from "./virtualMachine";
import { vmPowerInputsSchema } from "./vmPower";
import { vmSnapshotInputsSchema } from "./vmSnapshot";
import { vnetInputsSchema } from "./vnet";

export interface ResourceSchema {
  token: string;
  table: string;
  description: string;
  inputs: z.ZodObject;
  /** Computed outputs besides the echoed inputs and `id`. */
  outputs: Record<string, { type: "string" | "boolean" | "integer"; description: string }>;
}

/** Every resource of the provider: drives check(), schema.json and the environment loader. */
export const resourceSchemas: ResourceSchema[] = [
  {
    token: "VirtualMachine",
    table: "vms",
    description: "A virtual machine. `id` is the VM key; its hardware attaches to `machineKey`.",
    inputs: virtualMachineInputsSchema,
    outputs: {
      machineKey: { type: "string", description: "Machine key: what drives, NICs and devices attach to" },
      status: { type: "string", description: "Live machine status at the last create, update or refresh" },
      running: { type: "boolean", description: "Whether the machine was running at the last create, update or refresh" },
      needRestart: { type: "boolean", description: "The platform's need_restart at the last refresh: settings changed outside Pulumi wait for a power cycle" },
    },
  },
  { token: "Drive", table: "machine_drives", description: "A drive of a VM's machine.", inputs: driveInputsSchema, outputs: {} },
  { token: "Nic", table: "machine_nics", description: "A network interface of a VM's machine.", inputs: nicInputsSchema, outputs: {} },
  {
    token: "Device",
    table: "machine_devices",
    description: "A passthrough device (GPU, PCI, USB, TPM) of a VM's machine.",
    inputs: deviceInputsSchema,
    outputs: { uuid: { type: "string", description: "UUID of the attached device" } },
  },
  { token: "Vnet", table: "vnets", description: "A virtual network.", inputs: vnetInputsSchema, outputs: {} },
  {
    token: "VmSnapshot",
    table: "machine_snapshots",
    description: "A snapshot of a VM; changing restoreTrigger restores the VM to it.",
    inputs: vmSnapshotInputsSchema,
    outputs: { machineKey: { type: "string", description: "Machine key of the snapshotted VM" } },
  },
  {
    token: "VmPower",
    table: "vms",
    description:
      "The power state of a VM as its own resource, ordered after others with dependsOn: e.g. start a VM only once its passthrough devices are attached (no start-stop-start). Leave the VM's own powerState unset then; deleting this resource leaves the VM as it is.",
    inputs: vmPowerInputsSchema,
    outputs: {
      machineKey: { type: "string", description: "Machine key of the VM" },
      status: { type: "string", description: "Live machine status at the last create, update or refresh" },
      running: { type: "boolean", description: "Whether the machine was running at the last create, update or refresh" },
    },
  },
];
