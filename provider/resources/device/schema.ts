import { z } from "zod";
import { adoptSchema, apiField, timeoutsSchema } from "../../schemas/common";
import { machineOwnerShape } from "../../schemas/hardware";
import { output } from "../../schemas/outputs";

/** The platform table its rows live in. */

export const deviceShape = {
  ...machineOwnerShape("device"),
  resourceGroup: apiField(
    z.guid("must be a UUID like 9a8b7c6d-5e4f-4321-8fed-cba987654321"),
    "resource_group",
    "string",
    "UUID of the hardware resource group (GPU, PCI, USB); changing it replaces the device",
    { onChange: "replace", references: { table: "resource_groups", noun: "resource group", column: "uuid" } },
  ),
  settingsArgs: apiField(
    z.record(z.string(), z.unknown()).default({}),
    "settings_args",
    "json",
    "Device-specific settings; {} for plain passthrough",
    { onChange: "replace" },
  ),
  name: apiField(z.string().max(128).optional(), "name", "string", "Device name"),
  type: apiField(
    z
      .enum([
        "gpu",
        "nvidia_vgpu",
        "tpm",
        "node_usb_devices",
        "node_sriov_nic_devices",
        "node_pci_devices",
        "node_host_gpu_devices",
        "node_nvidia_vgpu_devices",
      ])
      .optional(),
    "type",
    "string",
    "Device type",
    { onChange: "replace" },
  ),
  enabled: apiField(z.boolean().optional(), "enabled", "bool", "Whether the device is enabled"),
  optional: apiField(z.boolean().optional(), "optional", "bool", "Start the VM even when the device is unavailable"),
  adopt: adoptSchema,
  timeouts: timeoutsSchema,
};

export const deviceInputsSchema = z.strictObject(deviceShape);
export type DeviceInputs = z.output<typeof deviceInputsSchema>;
export const deviceOutputs = { uuid: output("string", "UUID of the attached device") };
