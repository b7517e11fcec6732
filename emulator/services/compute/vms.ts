/**
 * `vms`: VM-level settings. Creating a VM also creates its machine and
 * machine_status row (answered in `response.machine`); deleting it removes the
 * machine with its drives, NICs, devices, cloud-init files, snapshots and tag
 * memberships. PUT follows the spec's restart rules.
 */
import { randomUUID } from "node:crypto";
import type { EmulatorContext } from "../../engine/context";
import { ApiError, conflict, validationError } from "../../model/errors";
import { assertNotBusy, isPoweredOn, statusOfVm } from "./machineState";
import { createMachineFor, deleteMachine } from "./machines";
import type { FieldDef, Row } from "../../model/types";
import { nameField, table, timestampFields } from "../../model/tableParts";
import { options } from "../../model/options";
import { COMPUTE } from "../../model/names/compute";
import { CLUSTER } from "../../model/names/cluster";
import { IDENTITY } from "../../model/names/identity";
import { TAGS } from "../../model/names/tags";
import { ownerReference } from "../../engine/ownerReference";

const list = (...values: string[]): Record<string, string> => options(values);

export const MACHINE_TYPE_OPTIONS = "pc, q35, pc-i440fx-*, pc-q35-*";
export const RAM_MIN = 512;
export const RAM_MAX = 1048576;

/** Settings whose change on a running VM only takes effect after a power cycle (sets need_restart). */
const RESTART_FIELDS = [
  "ram",
  "cpu_cores",
  "nested_virtualization",
  "disable_hypervisor",
  "uefi",
  "secure_boot",
  "machine_type",
  "cpu_type",
];

const boolField = (def: boolean, extra: Partial<FieldDef> = {}): FieldDef => ({ type: "bool", default: def, ...extra });

export const vmFields: Record<string, FieldDef> = {
  name: nameField(),
  description: { type: "text", default: "", maxLength: 2048 },
  machine: { type: "row", ref: COMPUTE.machines, readOnly: true, summary: true, description: "machine key of the VM" },
  cluster: { type: "row", ref: CLUSTER.clusters, refMustExist: 404, default: 1, description: "target cluster key" },
  enabled: boolField(true),
  ...timestampFields(),
  is_snapshot: { type: "bool", readOnly: true, default: false, summary: true },
  parent_vm: { type: "row", ref: COMPUTE.vms, readOnly: true, description: "VM a snapshot VM was taken of" },
  machine_type: {
    type: "string",
    default: "pc-q35-10.0",
    enum: { test: (v) => /^(pc|q35|pc-i440fx-[A-Za-z0-9.]+|pc-q35-[A-Za-z0-9.]+)$/.test(v), options: MACHINE_TYPE_OPTIONS },
  },
  allow_hotplug: boolField(true),
  guest_agent: boolField(false),
  cpu_cores: { type: "uint16", default: 1, min: 1, max: 1024, boundsMessage: "CPU cores must be between 1 and 1024" },
  cpu_type: { type: "string", default: "host", maxLength: 64 },
  ram: { type: "uint32", default: 1024, min: RAM_MIN, max: RAM_MAX, boundsMessage: `RAM must be between ${RAM_MIN} and ${RAM_MAX} MB` },
  console: { type: "string", default: "vnc", enum: list("vnc", "spice", "serial", "none") },
  video: { type: "string", default: "std", enum: list("std", "cirrus", "vmware", "qxl", "virtio", "none") },
  sound: { type: "string", default: "none", enum: list("none", "sb16", "es1370", "ac97", "adlib", "gus", "cs4231a", "hda", "pcspk") },
  os_family: { type: "string", default: "linux", enum: list("linux", "windows", "freebsd", "other") },
  rtc_base: { type: "string", default: "utc", enum: list("utc", "localtime") },
  boot_order: { type: "string", default: "cd", enum: list("cd", "cdn", "dc", "nc", "n", "c", "d", "strict", "nd", "do") },
  boot_delay: { type: "uint16", default: 5 },
  on_power_loss: { type: "string", default: "last_state", enum: list("power_on", "last_state", "leave_off") },
  console_pass_enabled: boolField(false),
  console_pass_hash: { type: "string", default: "", maxLength: 512 },
  console_pass: { type: "string", hidden: true, maxLength: 256, description: "write-only console password" },
  usb_tablet: boolField(true),
  usb_legacy: boolField(false),
  serial_port: boolField(false),
  uefi: boolField(false),
  secure_boot: boolField(false),
  nested_virtualization: boolField(false),
  disable_hypervisor: boolField(false),
  show_advanced: boolField(false),
  iommu: boolField(false),
  cluster_failover: { type: "row", ref: CLUSTER.clusters, refMustExist: 404, default: null, description: "cluster to fail over to" },
  preferred_node: { type: "row", ref: CLUSTER.nodes, refMustExist: 404, default: null, description: "node to start on when it has room" },
  ha_group: { type: "string", default: "", maxLength: 128 },
  disable_powercycle: boolField(false, { description: "no automatic power cycle when a change needs one" }),
  os_description: { type: "string", default: "", maxLength: 256 },
  display: { type: "string", default: "", maxLength: 128, description: "display (monitor) settings" },
  owner_user: { type: "row", ref: IDENTITY.users, default: null },
  paste_key_config: { type: "row", default: null, description: "accepted and stored; paste key configs are not emulated" },
  advanced: { type: "text", default: "", description: "k=v lines" },
  uuid: { type: "string", readOnly: true, default: () => randomUUID() },
  need_restart: { type: "bool", readOnly: true, default: false },
  console_status: { type: "uint8", readOnly: true, default: 0 },
  cloudinit_datasource: { type: "string", default: "none", enum: list("none", "config_drive_v2", "nocloud") },
  cloudinit_files: { type: "json", notInMost: true, description: "create-time list of {name, contents}; stored as cloudinit_files rows" },
  imported: { type: "bool", readOnly: true, default: false },
  created_from: {
    type: "string",
    default: "custom",
    enum: list("import", "import_vmx", "import_ovf", "import_vmware", "import_shared", "clone", "recipe", "custom", "terraform"),
  },
  migration_method: { type: "string", default: "auto", enum: list("auto", "live") },
  note: { type: "text", default: "", maxLength: 65536 },
  power_cycle_timeout: { type: "uint32", default: 60 },
  allow_export: boolField(true),
  snapshot_profile: { type: "row", ref: "snapshot_profiles", description: "accepted and stored; snapshot profiles are not emulated" },
  creator: { type: "string", readOnly: true, default: "" },
  owner: { type: "string", readOnly: true, default: null },
  meta: { type: "json", default: null, notInMost: true },
};

function checkCloudinitFiles(value: unknown): Array<{ name: string; contents: string }> {
  if (value === null || value === undefined) return [];
  if (!Array.isArray(value)) throw validationError(COMPUTE.cloudinit_files, "must be an array of {name, contents}");
  return value.map((item) => {
    if (
      !item ||
      typeof item !== "object" ||
      typeof item.name !== "string" ||
      item.name === "" ||
      (item.contents !== undefined && typeof item.contents !== "string")
    ) {
      throw validationError(COMPUTE.cloudinit_files, "items need a name (string) and contents (string)");
    }
    if ((item.contents ?? "").length > 65536) throw validationError(COMPUTE.cloudinit_files, "contents longer than 64 KB");
    return { name: item.name, contents: item.contents ?? "" };
  });
}

/** Replaces the VM's cloud-init file rows with the given list. */
export function writeCloudinitFiles(
  ctx: EmulatorContext,
  vm: Row,
  files: Array<{ name: string; contents: string }>,
  creator: string,
): void {
  const owner = ownerReference(COMPUTE.vms, vm.$key);
  for (const row of ctx.find(COMPUTE.cloudinit_files, (f) => f.owner === owner)) ctx.remove(COMPUTE.cloudinit_files, row.$key);
  for (const file of files) {
    ctx.insert(COMPUTE.cloudinit_files, {
      name: file.name,
      owner,
      render: "no",
      contents: file.contents,
      modified: ctx.nowSeconds(),
      creator,
    });
  }
}

/** Deletes a VM and everything it owns (also its snapshot VMs). */
export function deleteVmCascade(ctx: EmulatorContext, vm: Row): void {
  const owner = ownerReference(COMPUTE.vms, vm.$key);
  for (const snapshotVm of ctx.find(COMPUTE.vms, (v) => v.parent_vm === vm.$key && v.is_snapshot === true)) {
    ctx.remove(COMPUTE.vms, snapshotVm.$key);
    deleteVmCascade(ctx, snapshotVm);
  }
  for (const file of ctx.find(COMPUTE.cloudinit_files, (f) => f.owner === owner)) ctx.remove(COMPUTE.cloudinit_files, file.$key);
  for (const member of ctx.find(TAGS.tag_members, (m) => m.member === owner)) ctx.remove(TAGS.tag_members, member.$key);
  // A snapshot VM takes its machine_snapshots record with it.
  for (const record of ctx.find(COMPUTE.machine_snapshots, (s) => s.snap_machine === vm.machine))
    ctx.remove(COMPUTE.machine_snapshots, record.$key);
  if (vm.machine !== null && vm.machine !== undefined) deleteMachine(ctx, vm.machine);
}

export const vmsTable = table(COMPUTE.vms, {
  description: "virtual machines (VM-level settings); hardware lives on the machine (response.machine)",
  keyType: "int",
  readRole: "readonly",
  writeRole: "vmoperator",
  unique: { field: "name", message: "VM with that name exists", status: 409, scope: (row) => row.is_snapshot !== true },
  defaultFields: [
    "name",
    "description",
    "machine",
    "cluster",
    "enabled",
    "is_snapshot",
    "cpu_cores",
    "ram",
    "created",
    "modified",
    "need_restart",
  ],
  fields: vmFields,
  hooks: {
    validate: (_ctx, row) => {
      checkCloudinitFiles(row.cloudinit_files);
    },
    beforeCreate: (_ctx, row, caller) => {
      if (caller.role !== "admin") throw new ApiError(403, "permission denied: creating VMs requires administrator rights");
      row.creator = caller.user;
    },
    afterCreate: (ctx, row, caller) => {
      const machine = createMachineFor(ctx, row);
      ctx.update(COMPUTE.vms, row.$key, { machine });
      writeCloudinitFiles(ctx, row, checkCloudinitFiles(row.cloudinit_files), caller.user);
      return { machine: String(machine) };
    },
    beforeUpdate: (ctx, row, changes) => {
      const status = statusOfVm(ctx, row);
      if (!isPoweredOn(status)) return;
      const changed = (field: string) => changes[field] !== undefined && changes[field] !== row[field];
      if (changed("cpu_cores") && row.allow_hotplug !== true) {
        throw conflict("cannot modify CPU cores while running without hotplug support");
      }
      if (RESTART_FIELDS.some(changed)) changes.need_restart = true;
    },
    afterUpdate: (ctx, row, previous, caller) => {
      if (JSON.stringify(row.cloudinit_files) !== JSON.stringify(previous.cloudinit_files)) {
        writeCloudinitFiles(ctx, row, checkCloudinitFiles(row.cloudinit_files), caller.user);
      }
      if (row.name !== previous.name && row.machine) ctx.update(COMPUTE.machines, row.machine as number, { name: row.name });
    },
    beforeDelete: (ctx, row, caller) => {
      if (caller.role !== "admin") throw new ApiError(403, "permission denied: deleting VMs requires administrator rights");
      const status = statusOfVm(ctx, row);
      assertNotBusy(status);
      if (isPoweredOn(status)) throw conflict("VM must be stopped before it is deleted");
    },
    afterDelete: (ctx, row) => deleteVmCascade(ctx, row),
  },
});
