import { z } from "zod";
import { sameMachineType } from "../../schemas/normalize";
import { POWER_CYCLE_POLICIES } from "../../schemas/hardware";
import { machineKeyOutput, optionalOutput, output, statusOutputs, type OutputValues } from "../../schemas/outputs";
import {
  adoptSchema,
  apiBodyOf,
  apiField,
  apiFieldsOf,
  inputsFromApiRow,
  keySchema,
  providerField,
  timeoutsSchema,
  whenValid,
} from "../../schemas/common";

/** The platform table its rows live in. */

const MACHINE_TYPE = /^(pc|q35|pc-i440fx-[A-Za-z0-9.]+|pc-q35-[A-Za-z0-9.]+)$/;
const RAM_MIN = 512;
const RAM_MAX = 1048576;

/** The clone's source and the vm_actions clone params (the clone's name is the VM's name). */
export const cloneFromShape = {
  vm: keySchema.optional().meta({ description: "VM key of the template VM to clone (or give `snapshot`)", whenRemoved: "unmanaged" }),
  snapshot: keySchema.optional().meta({
    description: "Key of a VM snapshot (a VmSnapshot's id) to clone instead of a VM: the image stays as it was when the snapshot was taken",
    whenRemoved: "unmanaged",
  }),
  description: apiField(z.string().optional(), "description", "string", "Description of the clone operation"),
  quiesce: apiField(z.boolean().optional(), "quiesce", "stringBool", "Quiesce the guest file systems while cloning"),
  preserveMacs: apiField(
    z.boolean().optional(),
    "preserve_macs",
    "stringBool",
    "Keep the template's MAC addresses (may cause network conflicts)",
  ),
  preserveDeviceUuids: apiField(z.boolean().optional(), "preserve_device_uuids", "stringBool", "Keep the template's device UUIDs"),
  // The spec gives the clone's cluster as a string key.
  cluster: apiField(keySchema.optional(), "cluster", "string", "Target cluster key"),
};

/** A clone has one source: a VM or a snapshot. */
export function checkCloneSource(clone: { vm?: string; snapshot?: string }, ctx: z.RefinementCtx): void {
  if ((clone.vm === undefined) === (clone.snapshot === undefined))
    ctx.addIssue({
      code: "custom",
      path: clone.vm === undefined ? ["vm"] : ["snapshot"],
      message:
        clone.vm === undefined
          ? "give the source to clone: vm (a VM key) or snapshot (a snapshot's key)"
          : "give vm or snapshot, not both: a clone has one source",
    });
}

export const cloneFromSchema = z.strictObject(cloneFromShape).superRefine(checkCloneSource).optional().meta({
  onChange: "replace",
  whenRemoved: "unmanaged",
  description:
    "Create the VM by cloning a template VM or a VM snapshot (vm_actions clone) instead of from scratch. Changing it replaces the VM.",
});

const cloudinitFileSchema = z.strictObject({
  name: z.string().min(1).meta({ description: "File name, e.g. /user-data" }),
  contents: z.string().max(65536).meta({ description: "File contents (at most 64 KiB)" }),
});

export const virtualMachineShape = {
  name: apiField(z.string().min(1).max(128), "name", "string", "VM name, unique on the platform (renames in place)"),
  description: apiField(z.string().max(2048).optional(), "description", "string", "Description"),
  cluster: apiField(keySchema.optional(), "cluster", "key", "Cluster key to create the VM in", { createOnly: true }),
  enabled: apiField(z.boolean().optional(), "enabled", "bool", "Whether the VM is enabled"),
  machineType: apiField(
    z.string().regex(MACHINE_TYPE, "valid options: pc, q35, pc-i440fx-*, pc-q35-*").optional(),
    "machine_type",
    "string",
    "Machine type: pc, q35, pc-i440fx-<version> or pc-q35-<version> (q35 ≡ pc-q35-*, pc ≡ pc-i440fx-*)",
    { onChange: "powerCycle", compare: "machineType" },
  ),
  allowHotplug: apiField(
    z.boolean().optional(),
    "allow_hotplug",
    "bool",
    "Allow hot-add/hot-remove of drives and NICs (and CPU changes while running)",
    { onChange: "nextStart" },
  ),
  guestAgent: apiField(z.boolean().optional(), "guest_agent", "stringBool", "Enable the guest agent (applies at next start)", {
    onChange: "nextStart",
  }),
  cpuCores: apiField(
    z.number().int().min(1).max(1024).optional(),
    "cpu_cores",
    "int",
    "CPU cores (default 1; a change needs a power cycle)",
    { onChange: "powerCycle" },
  ),
  cpuType: apiField(z.string().max(64).optional(), "cpu_type", "string", "CPU type (needs a power cycle)", { onChange: "powerCycle" }),
  ram: apiField(
    z.number().int().min(RAM_MIN, `RAM must be at least ${RAM_MIN} MB`).max(RAM_MAX, `RAM must be at most ${RAM_MAX} MB`).optional(),
    "ram",
    "int",
    `RAM in MB, ${RAM_MIN}–${RAM_MAX} (default 1024; a change needs a power cycle)`,
    { onChange: "powerCycle" },
  ),
  console: apiField(z.enum(["vnc", "spice", "serial", "none"]).optional(), "console", "string", "Console type (applies at next start)", {
    onChange: "nextStart",
  }),
  video: apiField(
    z.enum(["std", "cirrus", "vmware", "qxl", "virtio", "none"]).optional(),
    "video",
    "string",
    "Video card (applies at next start)",
    { onChange: "nextStart" },
  ),
  sound: apiField(
    z.enum(["none", "sb16", "es1370", "ac97", "adlib", "gus", "cs4231a", "hda", "pcspk"]).optional(),
    "sound",
    "string",
    "Sound card",
    { onChange: "nextStart" },
  ),
  osFamily: apiField(z.enum(["linux", "windows", "freebsd", "other"]).optional(), "os_family", "string", "Guest OS family"),
  rtcBase: apiField(z.enum(["utc", "localtime"]).optional(), "rtc_base", "string", "Real-time clock base", { onChange: "nextStart" }),
  bootOrder: apiField(
    z.enum(["cd", "cdn", "dc", "nc", "n", "c", "d", "strict", "nd", "do"]).optional(),
    "boot_order",
    "string",
    "Boot order",
    { onChange: "nextStart" },
  ),
  bootDelay: apiField(z.number().int().min(0).max(65535).optional(), "boot_delay", "int", "Boot delay (seconds)", {
    onChange: "nextStart",
  }),
  onPowerLoss: apiField(
    z.enum(["power_on", "last_state", "leave_off"]).optional(),
    "on_power_loss",
    "string",
    "What the VM does after a power loss",
  ),
  consolePassHash: apiField(
    z.string().max(512).optional(),
    "console_pass_hash",
    "string",
    "Hash of the console password (empty string when unused)",
    {
      onChange: "nextStart",
      secret: true,
    },
  ),
  consolePassEnabled: apiField(z.boolean().optional(), "console_pass_enabled", "bool", "Require a console password", {
    onChange: "nextStart",
  }),
  usbTablet: apiField(z.boolean().optional(), "usb_tablet", "bool", "USB tablet device", { onChange: "nextStart" }),
  usbLegacy: apiField(z.boolean().optional(), "usb_legacy", "bool", "Legacy USB controller", { onChange: "nextStart" }),
  serialPort: apiField(z.boolean().optional(), "serial_port", "bool", "Serial port", { onChange: "nextStart" }),
  uefi: apiField(z.boolean().optional(), "uefi", "stringBool", "UEFI firmware (needs a power cycle)", { onChange: "powerCycle" }),
  secureBoot: apiField(z.boolean().optional(), "secure_boot", "stringBool", "Secure boot; requires uefi (needs a power cycle)", {
    onChange: "powerCycle",
  }),
  nestedVirtualization: apiField(
    z.boolean().optional(),
    "nested_virtualization",
    "stringBool",
    "Nested virtualization (needs a power cycle)",
    { onChange: "powerCycle" },
  ),
  disableHypervisor: apiField(
    z.boolean().optional(),
    "disable_hypervisor",
    "stringBool",
    "Hide the hypervisor from the guest (needs a power cycle)",
    { onChange: "powerCycle" },
  ),
  showAdvanced: apiField(z.boolean().optional(), "show_advanced", "stringBool", "Show advanced options"),
  cloudinitDatasource: apiField(
    z.enum(["none", "nocloud", "config_drive_v2"]).optional(),
    "cloudinit_datasource",
    "string",
    "Cloud-init datasource",
    { onChange: "nextStart" },
  ),
  // POST vms takes the files; afterwards they are rows of cloudinit_files owned by the VM.
  cloudinitFiles: apiField(
    z.array(cloudinitFileSchema).optional(),
    "cloudinit_files",
    "json",
    "Cloud-init files (name, contents): sent with the VM at creation, kept in sync afterwards (cloud-init reads them at boot); files not listed are removed",
    { createOnly: true, onChange: "action" },
  ),
  migrationMethod: apiField(z.enum(["auto", "live"]).optional(), "migration_method", "string", "Migration method"),
  powerCycleTimeout: apiField(z.number().int().min(0).optional(), "power_cycle_timeout", "int", "Platform power-cycle timeout (seconds)"),
  allowExport: apiField(z.boolean().optional(), "allow_export", "bool", "Allow exporting the VM"),
  note: apiField(z.string().max(65536).optional(), "note", "string", "The VM's note (set through note_actions)", { onChange: "action" }),
  powerState: providerField(
    z.enum(["running", "stopped"]).optional(),
    "Desired power state; unset leaves power alone. Read from the live machine status, not the powerstate column.",
    { onChange: "action" },
  ),
  powerCyclePolicy: providerField(
    z.enum(POWER_CYCLE_POLICIES).default("restart"),
    "What to do when a change needs a power cycle of a running VM: restart (graceful shutdown, forced after timeouts.gracefulShutdown, apply, power on) or refuse with an error.",
    { onChange: "control" },
  ),
  exclusiveHardware: providerField(
    z.boolean().optional(),
    "The VM has only the drives and NICs its program declares (and those it had when made or adopted: a clone's copies): one added elsewhere (a student's NIC, on any network) is drift at refresh, and the next update removes it",
    { onChange: "control" },
  ),
  cloneFrom: cloneFromSchema,
  adopt: adoptSchema,
  timeouts: timeoutsSchema,
};

export const VIRTUAL_MACHINE_RULE_FIELDS = ["uefi", "secureBoot", "cloudinitFiles"];
export const virtualMachineInputsSchema = z
  .strictObject(virtualMachineShape)
  .superRefine(checkVirtualMachine, whenValid(...VIRTUAL_MACHINE_RULE_FIELDS));

export function checkVirtualMachine(
  vm: { uefi?: boolean; secureBoot?: boolean; cloneFrom?: unknown; cloudinitFiles?: { name: string }[] },
  ctx: z.RefinementCtx,
): void {
  if (vm.secureBoot && vm.uefi !== true) ctx.addIssue({ code: "custom", path: ["secureBoot"], message: "secure boot needs uefi: true" });
  const names = (vm.cloudinitFiles ?? []).map((f) => f.name);
  names.forEach((n, i) => {
    if (names.indexOf(n) !== i)
      ctx.addIssue({ code: "custom", path: ["cloudinitFiles", i, "name"], message: `cloud-init file '${n}' is declared twice` });
  });
}

export type VirtualMachineInputs = z.output<typeof virtualMachineInputsSchema>;

/** Outputs of a VM with exclusiveHardware only. */
export const exclusiveHardwareOutputs = {
  baselineHardware: optionalOutput(
    "string",
    "With exclusiveHardware: the drives and NICs the VM had when it was made or adopted (a clone's copies), as kind:key, comma-separated",
  ),
  strayHardware: optionalOutput(
    "string",
    "With exclusiveHardware: the drives and NICs the last refresh found that the program does not declare (the next update removes them); empty when none",
  ),
};

export const virtualMachineOutputs = {
  machineKey: machineKeyOutput("the VM"),
  ...statusOutputs,
  needRestart: output("boolean", "The platform's need_restart at the last refresh: settings changed outside Pulumi wait for a power cycle"),
  ...exclusiveHardwareOutputs,
};
export type VirtualMachineOutputs = VirtualMachineInputs & OutputValues<typeof virtualMachineOutputs>;

export { sameMachineType };

/**
 * The VM's row mapping, as a row resource's (read fields, body, read-back): the shape's columns, but a machine type
 * the platform reports in the versioned form of the declared one reads back as declared, and the cloud-init files (a
 * create-time seed kept in a table of their own) never read back from the VM's row.
 */
export const virtualMachineRows = {
  readFields: apiFieldsOf(virtualMachineShape),
  toApiBody: (inputs: Partial<VirtualMachineInputs>, mode: "create" | "update" = "create"): Record<string, unknown> =>
    apiBodyOf(virtualMachineShape, inputs as Record<string, unknown>, mode),
  fromApiRow(row: Record<string, unknown>, declared?: Record<string, unknown>): Partial<VirtualMachineInputs> {
    const out = inputsFromApiRow(virtualMachineShape, row, declared) as Partial<VirtualMachineInputs>;
    const wanted = declared?.machineType as string | undefined;
    if (wanted && sameMachineType(wanted, out.machineType)) out.machineType = wanted;
    delete out.cloudinitFiles;
    return out;
  },
};

/** `params` of the vm_actions clone action, without `name` (the VM's name): string booleans, as the spec gives them. */
export function toCloneParams(cloneFrom: NonNullable<VirtualMachineInputs["cloneFrom"]>): Record<string, unknown> {
  return apiBodyOf(cloneFromShape, cloneFrom);
}
