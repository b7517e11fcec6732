/**
 * Machine hardware: `machine_drives`, `machine_nics`, `machine_devices` and
 * the per-drive / per-NIC status rows. Hot-plug rules: on a powered-on VM a
 * drive or NIC can be added or removed only with `allow_hotplug` (else 409);
 * a drive must be hot-unplugged (status offline) before it is deleted; IDE
 * drives never hot-plug; passthrough devices need a stopped VM.
 */
import { randomBytes, randomUUID } from "node:crypto";
import type { EmulatorContext } from "../../engine/context";
import { ApiError, conflict } from "../../model/errors";
import { assertTierSpace, driveBytes } from "./capacity";
import { isPoweredOn, statusOfMachine, vmOfMachine } from "./machineState";
import { DURATIONS } from "./power";
import type { FieldDef, Row, TableDef } from "../../model/types";
import { descriptionField, enabledField, listedRows, table, timestampFields } from "../../model/tableParts";
import { options } from "../../model/options";
import { COMPUTE } from "../../model/names/compute";
import { MEDIA } from "../../model/names/media";
import { NETWORK } from "../../model/names/network";
import { CLUSTER } from "../../model/names/cluster";

const list = (...values: string[]): Record<string, string> => options(values);

// Labels as the maker's Python client shows them (display names of the platform's lists).
export const DRIVE_INTERFACES = options(
  [
    "virtio-scsi",
    "virtio",
    "ide",
    "ahci",
    "nvme",
    "cifs",
    "nfs",
    "vsan",
    "lsi53c895a",
    "megasas",
    "megasas-gen2",
    "mptsas1068",
    "virtio-scsi-dedicated",
    "pflash",
    "direct",
    "tpm_state",
    "usb",
  ],
  {
    virtio: "Virtio (Legacy)",
    ide: "IDE",
    ahci: "SATA (AHCI)",
    nvme: "NVMe",
    "virtio-scsi": "Virtio-SCSI",
    "virtio-scsi-dedicated": "Virtio-SCSI (Dedicated)",
    lsi53c895a: "LSI SCSI",
    megasas: "LSI MegaRAID SAS",
    "megasas-gen2": "LSI MegaRAID SAS 2",
    usb: "USB",
  },
);
export const DRIVE_MEDIA = options(
  [
    "disk",
    "cdrom",
    "efidisk",
    "import",
    "9p",
    "dir",
    "clone",
    "clone9p",
    "clonedir",
    "nonpersistent",
    "nonpersistent9p",
    "nonpersistentdir",
  ],
  {
    cdrom: "CD-ROM",
    disk: "Disk",
    efidisk: "EFI Disk",
    import: "Import Disk",
    "9p": "Pass-Through (9P)",
    dir: "Pass-Through (Directory)",
    clone: "Clone Disk",
    nonpersistent: "Non-Persistent",
  },
);
const NIC_INTERFACES = options(["virtio", "e1000", "e1000e", "rtl8139", "pcnet", "igb", "vmxnet3", "direct"], {
  e1000: "Intel e1000",
  e1000e: "Intel e1000e",
  rtl8139: "Realtek 8139",
  pcnet: "AMD PCnet",
  igb: "Intel 82576",
  vmxnet3: "VMware Paravirt v3",
});
/** Media that read from a `files` row. */
const SOURCED_MEDIA = new Set(["import", "clone", "cdrom"]);
export const DEFAULT_DISK_SIZE = 10 * 1024 ** 3;

function machineIsOn(ctx: EmulatorContext, machine: unknown): boolean {
  return isPoweredOn(statusOfMachine(ctx, machine));
}

function assertHotplugAllowed(ctx: EmulatorContext, machine: unknown, what: string): void {
  if (!machineIsOn(ctx, machine)) return;
  const vm = vmOfMachine(ctx, machine);
  if (vm?.allow_hotplug !== true) throw conflict(`VM must be stopped to ${what} (allow_hotplug is off)`);
}

/** The tables of the drives' and NICs' runtime status. */
type RuntimeStatusTable = typeof COMPUTE.machine_drive_status | typeof COMPUTE.machine_nic_status;

/** Status row changes with a hotplug transition when the machine is running. */
export function hotplugTransition(ctx: EmulatorContext, table: RuntimeStatusTable, key: unknown, final: string): void {
  const row = ctx.get(table, key)!;
  ctx.update(table, row.$key, { status: "hotplugging" });
  ctx.schedule(DURATIONS.hotplug, () => {
    const current = ctx.get(table, key);
    if (current?.status === "hotplugging") ctx.update(table, current.$key, { status: final });
  });
}

/**
 * A new drive's or NIC's status row (same key, `parent` naming it): `off`, then hot-plugged to `on` when it is enabled
 * and its machine runs.
 */
function addRuntimeStatus(
  ctx: EmulatorContext,
  row: Row,
  table: RuntimeStatusTable,
  parent: string,
  status: { off: string; on: string },
): void {
  ctx.insert(table, { $key: row.$key, [parent]: row.$key, status: status.off, status_info: "" });
  if (machineIsOn(ctx, row.machine) && row.enabled !== false) hotplugTransition(ctx, table, row.$key, status.on);
}

/** Runtime status rows of drives and NICs (same key as the drive / NIC). */
function runtimeStatusTable(
  name: string,
  parent: string,
  parentTable: string,
  statuses: string,
  extra: Record<string, FieldDef> = {},
): TableDef {
  return {
    name,
    description: `runtime status of a ${parentTable} row (same key): ${statuses}`,
    ...listedRows("int"),
    fields: {
      [parent]: { type: "row", ref: parentTable, readOnly: true },
      status: { type: "string", readOnly: true, summary: true },
      status_info: { type: "string", readOnly: true },
      ...extra,
    },
  };
}

export const driveStatusTable = runtimeStatusTable(
  COMPUTE.machine_drive_status,
  "drive",
  COMPUTE.machine_drives,
  "online, offline, importing, hotplugging",
);
/** Link state of a NIC's status (`status` follows the NIC's `enabled` and its machine's power). */
const LINK_STATE: Record<string, string> = { up: "online", hotplugging: "warning", down: "offline" };

// `parent_nic`: the platform's name, which pyVergeOS filters and reads (`parent_nic eq <nic>`).
export const nicStatusTable = runtimeStatusTable(COMPUTE.machine_nic_status, "parent_nic", COMPUTE.machine_nics, "up, down, hotplugging", {
  speed: { type: "uint32", compute: (_ctx, row) => (row.status === "up" ? 10000 : 0), description: "link speed, Mbps" },
  state: {
    type: "string",
    compute: (_ctx, row) => LINK_STATE[String(row.status)] ?? "offline",
    enum: { online: "Online", offline: "Offline", warning: "Warning", error: "Error" },
    description: "online while the link is up, warning while it hotplugs, else offline",
  },
  last_update: {
    type: "uint64",
    compute: (ctx, row) => ctx.get(COMPUTE.machine_status, ctx.get(COMPUTE.machine_nics, row.$key)?.machine)?.last_update ?? 0,
    description: "seconds since the epoch: the last power change of its machine, which moves the link",
  },
});

/** A passthrough device is online while its machine runs (the emulator has no device that can fail). */
export const deviceStatusTable = runtimeStatusTable(COMPUTE.machine_device_status, "device", COMPUTE.machine_devices, "online, offline", {
  status: {
    type: "string",
    summary: true,
    enum: { online: "Online", offline: "Offline" },
    compute: (ctx, row) => (machineIsOn(ctx, ctx.get(COMPUTE.machine_devices, row.$key)?.machine) ? "online" : "offline"),
  },
  status_info: { type: "string", compute: () => "" },
});

export const drivesTable = table(COMPUTE.machine_drives, {
  description: "drives of a machine",
  keyType: "int",
  writeRole: "vmoperator",
  validationStatus: 422,
  parent: "machine",
  defaultFields: [
    "machine",
    "name",
    "description",
    "media",
    "interface",
    "disksize",
    "preferred_tier",
    "media_source",
    "enabled",
    "status",
  ],
  fields: {
    machine: { type: "row", ref: COMPUTE.machines, required: true, refMustExist: 404, createOnly: true, errorStatus: 400 },
    name: {
      type: "string",
      maxLength: 128,
      default: (_row: Record<string, unknown>, ctx: EmulatorContext) => `drive_${ctx.store(COMPUTE.machine_drives).nextKey}`,
      summary: true,
    },
    description: descriptionField(),
    media: { type: "string", default: "disk", enum: DRIVE_MEDIA },
    interface: { type: "string", default: "virtio-scsi", enum: DRIVE_INTERFACES },
    disksize: { type: "uint64", description: "bytes; can only grow" },
    preferred_tier: { type: "string", default: "1", enum: list("1", "2", "3", "4", "5") },
    media_source: { type: "row", ref: MEDIA.files, description: "files key for import, clone, cdrom" },
    show_pt: { type: "bool", default: false },
    enabled: enabledField(),
    readonly: { type: "bool", default: false },
    preserve_drive_format: { type: "bool", default: false },
    orderid: { type: "uint16", default: 0 },
    serial: { type: "string", default: "" },
    optimize: { type: "string", default: "" },
    // The platform answers fsync as text ("" = the default, "0", "1"); JSON booleans are accepted.
    fsync: {
      type: "string",
      default: "",
      enum: { "": "Default", "0": "Off", "1": "On" },
      coerce: (v) => (typeof v === "boolean" ? (v ? "1" : "0") : v),
    },
    advanced: { type: "text", default: "", description: "k=v lines" },
    ms_2023_kek_applied: {
      type: "bool",
      readOnly: true,
      default: false,
      description: "Microsoft 2023 secure-boot keys applied (EFI disks)",
    },
    used_bytes: {
      type: "uint64",
      compute: (_ctx, row) => (SOURCED_MEDIA.has(String(row.media)) ? 0 : Math.floor(Number(row.disksize ?? 0) / 16)),
      description: "bytes written (emulated: a sixteenth)",
    },
    discard: { type: "bool", default: true },
    asset: { type: "string", default: "" },
    status: { type: "row", ref: COMPUTE.machine_drive_status, readOnly: true },
    // Stands for the bytes a guest wrote: never in the API (no platform field shows a disk's data); the
    // /_emulator/drives hook reads and writes it. Clones and snapshots copy it, a restore puts it back.
    content: { type: "text", hidden: true, readOnly: true, default: "" },
  },
  hooks: {
    validate: (ctx, row, previous) => {
      const media = String(row.media);
      if (SOURCED_MEDIA.has(media)) {
        if (row.media_source === null || row.media_source === undefined) {
          throw new ApiError(422, `media_source is required for media '${media}'`, "err");
        }
        const file = ctx.get(MEDIA.files, row.media_source);
        if (!file) throw new ApiError(404, `media_source '${String(row.media_source)}' not found`);
        if (media === "cdrom" && file.type !== "iso") throw new ApiError(422, "media_source of a cdrom must be an ISO image");
        if (!previous && row.disksize === null && media !== "cdrom") row.disksize = file.filesize;
      }
      if (row.disksize === null && !previous && (media === "disk" || media === "efidisk"))
        row.disksize = media === "efidisk" ? 1024 ** 2 : DEFAULT_DISK_SIZE;
      if (previous) {
        const before = Number(previous.disksize ?? 0);
        const after = Number(row.disksize ?? 0);
        if (after < before) throw new ApiError(422, "drive cannot be shrunk: disksize must be larger than the current size", "err");
        const status = ctx.get(COMPUTE.machine_drive_status, row.$key);
        if (after !== before && row.interface === "ide" && status?.status === "online") {
          throw new ApiError(422, "an online IDE drive cannot be resized", "err");
        }
      }
      const extra = driveBytes(row) - (previous ? driveBytes(previous) : 0);
      const tierChanged = previous && String(previous.preferred_tier) !== String(row.preferred_tier);
      assertTierSpace(ctx, new Map([[String(row.preferred_tier), tierChanged ? driveBytes(row) : extra]]));
    },
    beforeCreate: (ctx, row) => {
      if (machineIsOn(ctx, row.machine)) {
        assertHotplugAllowed(ctx, row.machine, "add a drive");
        if (row.interface === "ide") throw new ApiError(422, "interface 'ide' does not support hotplug", "err");
      }
      row.status = row.$key;
    },
    afterCreate: (ctx, row) => addRuntimeStatus(ctx, row, COMPUTE.machine_drive_status, "drive", { off: "offline", on: "online" }),
    beforeDelete: (ctx, row) => {
      if (!machineIsOn(ctx, row.machine)) return;
      assertHotplugAllowed(ctx, row.machine, "remove a drive");
      if (ctx.get(COMPUTE.machine_drive_status, row.$key)?.status !== "offline") {
        throw conflict("drive must be hot-unplugged (vm_actions hotplugdrive with unplug) before it is deleted from a running VM");
      }
    },
    afterDelete: (ctx, row) => {
      ctx.remove(COMPUTE.machine_drive_status, row.$key);
    },
  },
});

export function newMac(): string {
  const bytes = randomBytes(3);
  return `00:16:3e:${[...bytes].map((b) => b.toString(16).padStart(2, "0")).join(":")}`;
}

export const nicsTable = table(COMPUTE.machine_nics, {
  description: "network interfaces of a machine",
  keyType: "int",
  writeRole: "vmoperator",
  validationStatus: 422,
  parent: "machine",
  defaultFields: ["machine", "name", "description", "interface", "vnet", "macaddress", "ipaddress", "enabled", "status"],
  fields: {
    machine: { type: "row", ref: COMPUTE.machines, required: true, refMustExist: 404, createOnly: true, errorStatus: 400 },
    vnet: { type: "row", ref: NETWORK.vnets, required: true, refMustExist: 404, errorStatus: 400 },
    name: { type: "string", maxLength: 128, default: "nic", summary: true },
    description: descriptionField(),
    interface: { type: "string", default: "virtio", enum: NIC_INTERFACES },
    enabled: enabledField(),
    macaddress: { type: "string", pattern: /^([0-9a-fA-F]{2}:){5}[0-9a-fA-F]{2}$/, default: () => newMac() },
    ipaddress: { type: "string", default: "" },
    orderid: { type: "uint8", default: 0, max: 30 },
    disable_mq: { type: "bool", default: false },
    asset: { type: "string", default: "" },
    driver: { type: "string", default: "", maxLength: 64 },
    model: { type: "string", default: "", maxLength: 64 },
    vendor: { type: "string", default: "", maxLength: 64 },
    port: { type: "uint16", default: 0 },
    device: { type: "string", readOnly: true, default: "", description: "guest device name, set by the guest agent" },
    stats: {
      type: "json",
      notInMost: true,
      compute: () => ({ rx_bytes: 0, tx_bytes: 0, rxbps: 0, txbps: 0 }),
      description: "traffic counters (emulated: zero)",
    },
    status: { type: "row", ref: COMPUTE.machine_nic_status, readOnly: true },
  },
  hooks: {
    validate: (_ctx, row) => {
      row.macaddress = String(row.macaddress).toLowerCase();
    },
    beforeCreate: (ctx, row) => {
      assertHotplugAllowed(ctx, row.machine, "add a NIC");
      row.status = row.$key;
    },
    afterCreate: (ctx, row) => addRuntimeStatus(ctx, row, COMPUTE.machine_nic_status, "parent_nic", { off: "down", on: "up" }),
    afterUpdate: (ctx, row) => {
      if (!machineIsOn(ctx, row.machine)) return;
      const status = ctx.get(COMPUTE.machine_nic_status, row.$key);
      if (status) ctx.update(COMPUTE.machine_nic_status, status.$key, { status: row.enabled === false ? "down" : "up" });
    },
    beforeDelete: (ctx, row) => assertHotplugAllowed(ctx, row.machine, "remove a NIC"),
    afterDelete: (ctx, row) => {
      ctx.remove(COMPUTE.machine_nic_status, row.$key);
    },
  },
});

export const devicesTable = table(COMPUTE.machine_devices, {
  description: "passthrough devices (GPU, PCI, USB, vGPU, TPM) of a machine",
  keyType: "int",
  writeRole: "vmoperator",
  parent: "machine",
  fields: {
    machine: { type: "row", ref: COMPUTE.machines, required: true, refMustExist: 404, createOnly: true },
    resource_group: { type: "row", ref: CLUSTER.resource_groups, refMustExist: 404, description: "UUID of the hardware resource group" },
    type: {
      type: "string",
      default: "node_host_gpu_devices",
      enum: list(
        "gpu",
        "nvidia_vgpu",
        "tpm",
        "node_usb_devices",
        "node_sriov_nic_devices",
        "node_pci_devices",
        "node_host_gpu_devices",
        CLUSTER.node_nvidia_vgpu_devices,
      ),
    },
    name: { type: "string", default: "", maxLength: 128, summary: true },
    description: descriptionField(),
    orderid: { type: "uint16", default: 0 },
    asset: { type: "string", default: "" },
    machine_type: {
      type: "string",
      compute: (ctx, row) => vmOfMachine(ctx, row.machine)?.machine_type ?? null,
      description: "machine type of the VM",
    },
    ...timestampFields(),
    enabled: enabledField(),
    optional: { type: "bool", default: false },
    count: { type: "uint8", default: 1, min: 1, max: 16 },
    settings_args: { type: "json", default: {} },
    uuid: { type: "string", readOnly: true, default: () => randomUUID() },
    status: { type: "row", ref: COMPUTE.machine_device_status, compute: (_ctx, row) => row.$key, description: "runtime status (same key)" },
  },
  hooks: {
    validate: (ctx, row) => {
      if (row.type !== "tpm" && (row.resource_group === null || row.resource_group === undefined)) {
        throw new ApiError(400, "Validation error on field: 'resource_group' - 'is required'", "err");
      }
      const group = row.resource_group === null ? undefined : ctx.get(CLUSTER.resource_groups, row.resource_group);
      if (group && row.type === "node_host_gpu_devices") row.type = String(group.type);
    },
    beforeCreate: (ctx, row) => {
      if (machineIsOn(ctx, row.machine)) throw conflict("VM must be stopped to add a passthrough device");
    },
    afterCreate: (ctx, row) => {
      ctx.insert(COMPUTE.machine_device_status, { $key: row.$key, device: row.$key });
      return { uuid: String(row.uuid) };
    },
    beforeDelete: (ctx, row) => {
      if (machineIsOn(ctx, row.machine)) throw conflict("VM must be stopped to remove a passthrough device");
    },
    afterDelete: (ctx, row) => {
      ctx.remove(COMPUTE.machine_device_status, row.$key);
    },
  },
});

/** Copies a machine's drives, NICs and devices onto another machine (clone, snapshot, restore). */
export function copyHardware(
  ctx: EmulatorContext,
  from: unknown,
  to: unknown,
  opts: { preserveMacs?: boolean; preserveDeviceUuids?: boolean },
): void {
  for (const drive of ctx.find(COMPUTE.machine_drives, (d) => d.machine === from)) {
    const { $key: _k, ...fields } = drive;
    const copy = ctx.insert(COMPUTE.machine_drives, { ...fields, machine: to });
    ctx.update(COMPUTE.machine_drives, copy.$key, { status: copy.$key });
    ctx.insert(COMPUTE.machine_drive_status, { $key: copy.$key, drive: copy.$key, status: "offline", status_info: "" });
  }
  for (const nic of ctx.find(COMPUTE.machine_nics, (n) => n.machine === from)) {
    const { $key: _k, ...fields } = nic;
    const copy = ctx.insert(COMPUTE.machine_nics, { ...fields, machine: to, macaddress: opts.preserveMacs ? nic.macaddress : newMac() });
    ctx.update(COMPUTE.machine_nics, copy.$key, { status: copy.$key });
    ctx.insert(COMPUTE.machine_nic_status, { $key: copy.$key, parent_nic: copy.$key, status: "down", status_info: "" });
  }
  for (const device of ctx.find(COMPUTE.machine_devices, (d) => d.machine === from)) {
    const { $key: _k, ...fields } = device;
    const copy = ctx.insert(COMPUTE.machine_devices, {
      ...fields,
      machine: to,
      uuid: opts.preserveDeviceUuids ? device.uuid : randomUUID(),
    });
    ctx.insert(COMPUTE.machine_device_status, { $key: copy.$key, device: copy.$key });
  }
}
