/**
 * `vm_actions`: power, clone, snapshot, restore, migrate and hotplug of VMs.
 * Body `{vm, action, params}`. Spellings of different clients are accepted:
 * guestreset / guestreboot (graceful reset), migrate with preferred_node or
 * node, restore with snapshot_id or snapshot, hotplugdrive / hotplugnic by
 * `{device, unplug}` or by new-device fields.
 */
import { randomUUID } from "node:crypto";
import type { EmulatorContext } from "../../engine/context";
import { createRow } from "../../engine/write";
import { authorizeNewRow } from "../identity/access";
import { ApiError, conflict, validationError } from "../../model/errors";
import { assertTierSpace, copyNeeds } from "./capacity";
import { assertNotBusy, isPoweredOn, runLongOperation, statusOfVm } from "./machineState";
import { DURATIONS, hibernate, kill, migrate, powerOff, powerOn, reset } from "./power";
import { copyHardware, drivesTable, hotplugTransition, nicsTable } from "./hardware";
import { createMachineFor } from "./machines";
import { keptSettings, snapshotsTable } from "./snapshots";
import type { ActionDef, Caller, FieldDef, Row } from "../../model/types";
import { table } from "../../model/tableParts";
import { COMPUTE, VM_EVENTS } from "../../model/names/compute";
import { CLUSTER } from "../../model/names/cluster";
import { ownerReference } from "../../engine/ownerReference";

const str: FieldDef = { type: "string", maxLength: 255 };
const bool: FieldDef = { type: "bool" };
const key: FieldDef = { type: "row" };

function vmOf(target: Row | undefined): Row {
  if (!target) throw validationError("vm", "is required");
  return target;
}

function nameTaken(ctx: EmulatorContext, name: unknown): boolean {
  return ctx.find(COMPUTE.vms, (v) => v.name === name && v.is_snapshot !== true).length > 0;
}

function clone(ctx: EmulatorContext, vm: Row, params: Record<string, unknown>, caller: Caller) {
  const name = params.name ?? `${String(vm.name)}-clone`;
  if (nameTaken(ctx, name)) throw conflict("VM with that name exists");
  const cluster = params.cluster ?? vm.cluster;
  if (params.cluster !== undefined && !ctx.get(CLUSTER.clusters, params.cluster))
    throw new ApiError(404, `cluster '${String(params.cluster)}' not found`);
  assertNotBusy(statusOfVm(ctx, vm));
  assertTierSpace(ctx, copyNeeds(ctx, vm.machine));
  const { $key: _k, machine: _m, ...settings } = vm;
  const copy = ctx.insert(COMPUTE.vms, {
    ...settings,
    name,
    description: params.description ?? vm.description,
    cluster,
    is_snapshot: false,
    parent_vm: null,
    uuid: randomUUID(),
    created: ctx.nowSeconds(),
    modified: ctx.nowSeconds(),
    need_restart: false,
    created_from: "clone",
    creator: caller.user,
  });
  const machine = createMachineFor(ctx, copy);
  ctx.update(COMPUTE.vms, copy.$key, { machine });
  copyHardware(ctx, vm.machine, machine, {
    preserveMacs: params.preserve_macs === true,
    preserveDeviceUuids: params.preserve_device_uuids === true,
  });
  for (const file of ctx.find(COMPUTE.cloudinit_files, (f) => f.owner === ownerReference(COMPUTE.vms, vm.$key))) {
    const { $key: _f, ...fields } = file;
    ctx.insert(COMPUTE.cloudinit_files, { ...fields, owner: ownerReference(COMPUTE.vms, copy.$key) });
  }
  runLongOperation(ctx, [vm.machine, machine], "cloning", DURATIONS.clone);
  ctx.emit(VM_EVENTS.cloned, COMPUTE.vms, vm, { clone: copy.$key });
  return {
    body: {
      $key: String(copy.$key),
      response: {
        vmkey: String(copy.$key),
        machinekey: String(machine),
        machinestatuskey: String(machine),
        clusterkey: cluster === null ? null : String(cluster),
      },
    },
  };
}

/**
 * Finds the snapshot to restore: a machine_snapshots key, a snapshot VM key or
 * a snapshot machine key (clients post each of these). The keys of these
 * tables overlap (snapshot VM 12 and snapshot record 12 may both exist), so
 * the VM's own snapshot wins among the readings. 404 when none exists, 422
 * when each is a snapshot of another VM.
 */
function findSnapshotVm(ctx: EmulatorContext, vm: Row, id: unknown): Row {
  const records = [
    ctx.get(COMPUTE.machine_snapshots, id),
    ...ctx.find(COMPUTE.machine_snapshots, (s) => String(s.snap_machine) === String(id)),
  ];
  const candidates = [
    ...records.flatMap((record) => (record ? ctx.find(COMPUTE.vms, (v) => v.machine === record.snap_machine) : [])),
    ...ctx.find(COMPUTE.vms, (v) => String(v.$key) === String(id) && v.is_snapshot === true),
  ];
  const own = candidates.find((snapVm) => snapVm.parent_vm === vm.$key);
  if (own) return own;
  if (candidates.length === 0) throw new ApiError(404, `snapshot '${String(id)}' not found`);
  throw new ApiError(422, `snapshot restore conflict: snapshot '${String(id)}' belongs to another VM`);
}

function restore(ctx: EmulatorContext, target: Row, params: Record<string, unknown>, caller: Caller) {
  let vm = target;
  let id = params.snapshot_id ?? params.snapshot;
  if (target.is_snapshot === true && (id === undefined || id === null)) {
    // Posted on the snapshot VM itself: restore its parent from it.
    const parent = ctx.get(COMPUTE.vms, target.parent_vm);
    if (!parent) throw new ApiError(404, "the VM of this snapshot no longer exists");
    vm = parent;
    id = target.$key;
  }
  if (id === undefined || id === null || id === "") throw validationError("params.snapshot_id", "is required");
  const snapVm = findSnapshotVm(ctx, vm, id);
  const status = statusOfVm(ctx, vm);
  assertNotBusy(status);
  if (isPoweredOn(status)) throw conflict("VM must be stopped to restore a snapshot");
  // The VM keeps its machine and the keys of its rows (hardware declared elsewhere stays valid):
  // drives go back to the snapshot's, matched by name; drives made since the snapshot go away.
  const machine = vm.machine;
  restoreDrives(ctx, snapVm.machine, machine);
  // A VM snapshot is the whole VM: its settings come back too (RAM, CPU, boot order, ...), its name and identity stay.
  ctx.update(COMPUTE.vms, vm.$key, { ...keptSettings(snapVm), need_restart: false, modified: ctx.nowSeconds() });
  const restored = ctx.get(COMPUTE.vms, vm.$key)!;
  runLongOperation(ctx, [machine], "restoring", DURATIONS.restore, () => {
    if (params.poweron === true) {
      try {
        powerOn(ctx, restored);
      } catch {
        /* no capacity: stays stopped, as a failed start would */
      }
    }
  });
  ctx.emit(VM_EVENTS.restored, COMPUTE.vms, restored, { snapshotVm: snapVm.$key, caller: caller.user });
  return { body: { response: { machine: String(machine) } } };
}

function restoreDrives(ctx: EmulatorContext, from: unknown, to: unknown): void {
  const saved = ctx.find(COMPUTE.machine_drives, (d) => d.machine === from);
  for (const drive of ctx.find(COMPUTE.machine_drives, (d) => d.machine === to)) {
    if (!saved.some((s) => s.name === drive.name)) {
      ctx.remove(COMPUTE.machine_drives, drive.$key);
      ctx.remove(COMPUTE.machine_drive_status, drive.$key);
    }
  }
  for (const { $key: _k, machine: _m, status: _s, ...fields } of saved) {
    const current = ctx.find(COMPUTE.machine_drives, (d) => d.machine === to && d.name === fields.name)[0];
    if (current) ctx.update(COMPUTE.machine_drives, current.$key, fields);
    else {
      const copy = ctx.insert(COMPUTE.machine_drives, { ...fields, machine: to });
      ctx.update(COMPUTE.machine_drives, copy.$key, { status: copy.$key });
      ctx.insert(COMPUTE.machine_drive_status, { $key: copy.$key, drive: copy.$key, status: "offline", status_info: "" });
    }
  }
}

function requireHotplugVm(ctx: EmulatorContext, vm: Row): void {
  if (statusOfVm(ctx, vm).status !== "running") throw conflict("VM must be running to hotplug");
  if (vm.allow_hotplug !== true) throw new ApiError(422, "hotplug is disabled for this VM (allow_hotplug is false)");
}

function hotplugExisting(
  ctx: EmulatorContext,
  vm: Row,
  table: typeof COMPUTE.machine_drives | typeof COMPUTE.machine_nics,
  device: unknown,
  unplug: boolean,
) {
  const statusTable = table === COMPUTE.machine_drives ? COMPUTE.machine_drive_status : COMPUTE.machine_nic_status;
  const row = ctx.get(table, device);
  if (!row) throw new ApiError(404, `${table === COMPUTE.machine_drives ? "drive" : "NIC"} '${String(device)}' not found`);
  if (row.machine !== vm.machine) throw new ApiError(422, `device '${String(device)}' does not belong to this VM`);
  if (table === COMPUTE.machine_drives && row.interface === "ide") throw new ApiError(422, "interface 'ide' does not support hotplug");
  const status = ctx.get(statusTable, row.$key)!;
  const [on, off] = table === COMPUTE.machine_drives ? ["online", "offline"] : ["up", "down"];
  if (status.status === "hotplugging") throw new ApiError(422, "already hotplugging this device");
  if (unplug && status.status === off) throw new ApiError(422, "device is already unplugged");
  if (!unplug && status.status === on) throw new ApiError(422, "device is already plugged in");
  hotplugTransition(ctx, statusTable, row.$key, unplug ? off : on);
}

function hotplug(table: typeof COMPUTE.machine_drives | typeof COMPUTE.machine_nics) {
  return (ctx: EmulatorContext, vm: Row, params: Record<string, unknown>, caller: Caller) => {
    requireHotplugVm(ctx, vm);
    if (params.device !== undefined && params.device !== null) {
      hotplugExisting(ctx, vm, table, params.device, params.unplug === true);
      return {};
    }
    // New device: created through the table's own rules (they start the hotplug transition) and rights (a NIC's vnet).
    const { unplug: _u, device: _d, ...fields } = params;
    const def = table === COMPUTE.machine_drives ? drivesTable : nicsTable;
    const { row } = createRow(ctx, def, { ...fields, machine: vm.machine }, caller, (draft) => authorizeNewRow(ctx, def, draft, caller));
    return { body: { $key: String(row.$key) } };
  };
}

type Handler = (
  ctx: EmulatorContext,
  vm: Row,
  params: Record<string, unknown>,
  caller: Caller,
  // biome-ignore lint/suspicious/noConfusingVoidType: a handler may return nothing
) => { status?: number; body?: Record<string, unknown> } | void;

function action(
  description: string,
  params: Record<string, FieldDef> | undefined,
  handler: Handler,
  grantNeeds?: ActionDef["grantNeeds"],
): ActionDef {
  return {
    description,
    params,
    handler: (ctx, { target, params: p, caller }) => handler(ctx, vmOf(target), p, caller) ?? undefined,
    ...(grantNeeds ? { grantNeeds } : {}),
  };
}

/** Actions that add or change a VM's hardware or snapshots: for grants, `create` on the VM, as a POST of the row would need. */
const CHANGES_CHILDREN = { createOnTarget: true } as const;

function resolveNode(ctx: EmulatorContext, id: unknown): Row | undefined {
  if (id === undefined || id === null || id === "") return undefined;
  const node = ctx.get(CLUSTER.nodes, id);
  if (!node) throw new ApiError(404, `node '${String(id)}' not found`);
  return node;
}

export const vmActionsTable = table(COMPUTE.vm_actions, {
  description: "VM actions: poweron, poweroff, kill, reset, clone, snapshot, restore, migrate, move, hibernate, hotplugdrive, hotplugnic",
  keyType: "int",
  operations: ["create"],
  fields: {},
  writeRole: "vmoperator",
  actions: {
    targetField: "vm",
    targetTable: COMPUTE.vms,
    aliases: { guestreset: "reset_graceful", guestreboot: "reset_graceful", quiesce_snapshot: "snapshot" },
    actions: {
      poweron: action("power on (201 when initiated)", { preferred_node: key }, (ctx, vm, p) =>
        powerOn(ctx, vm, resolveNode(ctx, p.preferred_node)?.$key ?? vm.preferred_node),
      ),
      poweroff: action("graceful ACPI shutdown", {}, (ctx, vm) => powerOff(ctx, vm)),
      kill: action("forced power off", {}, (ctx, vm) => kill(ctx, vm)),
      reset: action("restart; params.graceful true = guest reboot", { graceful: bool }, (ctx, vm, p) =>
        reset(ctx, vm, p.graceful === true),
      ),
      reset_graceful: action("graceful reset (guestreset / guestreboot spellings)", {}, (ctx, vm) => reset(ctx, vm, true)),
      clone: action(
        "clone the VM (response: vmkey, machinekey, machinestatuskey, clusterkey)",
        {
          name: { ...str, required: true },
          description: { type: "text" },
          quiesce: bool,
          preserve_macs: bool,
          preserve_device_uuids: bool,
          cluster: key,
        },
        clone,
        { createIn: COMPUTE.vms },
      ),
      snapshot: action(
        "snapshot the VM (creates an is_snapshot VM and a machine_snapshots row)",
        {
          name: str,
          description: { type: "text" },
          quiesce: bool,
          expires: { type: "uint64" },
          expires_type: str,
          retention: { type: "uint64" },
        },
        (ctx, vm, p, caller) => {
          const expires = p.expires ?? (p.retention ? ctx.nowSeconds() + Number(p.retention) : 0);
          const body = {
            machine: vm.machine,
            description: p.description ?? "",
            quiesce: p.quiesce === true,
            expires,
            ...(p.name ? { name: p.name } : {}),
          };
          const { row, response } = createRow(ctx, snapshotsTable, body, caller);
          return { body: { $key: String(row.$key), response } };
        },
        CHANGES_CHILDREN,
      ),
      restore: action(
        "restore a snapshot (snapshot_id or snapshot: machine_snapshots key, snapshot VM key or snap_machine)",
        { snapshot_id: key, snapshot: key, poweron: bool, preserve_macs: bool, name: str },
        restore,
      ),
      migrate: action(
        "move a running VM to another node",
        { preferred_node: key, node: key, method: { type: "string", enum: { auto: "auto", live: "live" } } },
        (ctx, vm, p) => migrate(ctx, vm, resolveNode(ctx, p.preferred_node ?? p.node)),
      ),
      hibernate: action("suspend to disk (hibernating → hibernated, resources freed); poweron resumes", {}, (ctx, vm) =>
        hibernate(ctx, vm),
      ),
      move: action(
        "move the VM to another node (running: a migration; stopped: it starts there next) and, stopped, to another cluster",
        { preferred_node: key, node: key, cluster: key },
        (ctx, vm, p) => {
          const node = resolveNode(ctx, p.preferred_node ?? p.node);
          const cluster = p.cluster === undefined || p.cluster === null ? undefined : ctx.get(CLUSTER.clusters, p.cluster);
          if (p.cluster !== undefined && p.cluster !== null && !cluster)
            throw new ApiError(404, `cluster '${String(p.cluster)}' not found`);
          const status = statusOfVm(ctx, vm);
          if (isPoweredOn(status)) {
            if (cluster && cluster.$key !== vm.cluster) throw conflict("VM must be stopped to move it to another cluster");
            migrate(ctx, vm, node);
            return;
          }
          assertNotBusy(status);
          ctx.update(COMPUTE.vms, vm.$key, {
            ...(node ? { preferred_node: node.$key } : {}),
            ...(cluster ? { cluster: cluster.$key } : {}),
            modified: ctx.nowSeconds(),
          });
        },
      ),
      hotplugdrive: action(
        "hot-plug or hot-unplug a drive: {device, unplug} or new-drive fields {name, disksize, interface, media, preferred_tier}",
        {
          device: key,
          unplug: bool,
          name: str,
          disksize: { type: "uint64" },
          interface: str,
          media: str,
          preferred_tier: str,
          media_source: key,
          description: { type: "text" },
        },
        hotplug(COMPUTE.machine_drives),
        CHANGES_CHILDREN,
      ),
      hotplugnic: action(
        "hot-plug or hot-unplug a NIC: {device, unplug} or new-NIC fields {name, vnet, interface}",
        { device: key, unplug: bool, name: str, vnet: key, interface: str, macaddress: str, description: { type: "text" } },
        hotplug(COMPUTE.machine_nics),
        CHANGES_CHILDREN,
      ),
    },
  },
});
