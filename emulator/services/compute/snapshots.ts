/**
 * `machine_snapshots`: a snapshot record of a machine. Creating one (POST here
 * or vm_actions snapshot) makes a snapshot VM (`is_snapshot` true, `parent_vm`
 * = the VM) holding copies of the drives, NICs and devices, and shows the
 * source machine as `snapshotting` for a while. Deleting the record deletes
 * the snapshot VM, and the other way round.
 */
import { randomUUID } from "node:crypto";
import { validationError } from "../../model/errors";
import { assertTierSpace, copyNeeds } from "./capacity";
import { assertNotBusy, runLongOperation, statusOfVm, vmOfMachine } from "./machineState";
import { DURATIONS } from "./power";
import { copyHardware } from "./hardware";
import { createMachineFor } from "./machines";
import { deleteVmCascade } from "./vms";
import type { Row } from "../../model/types";
import { descriptionField, table } from "../../model/tableParts";
import { COMPUTE, VM_EVENTS } from "../../model/names/compute";

/**
 * The fields a snapshot VM has of its own (its identity and bookkeeping); every other
 * setting is the VM's as it was, and a restore puts those back.
 */
export const SNAPSHOT_OWN_FIELDS = [
  "$key",
  "name",
  "description",
  "is_snapshot",
  "parent_vm",
  "machine",
  "uuid",
  "created",
  "modified",
  "need_restart",
  "creator",
] as const;

/** The VM's settings a snapshot VM keeps (and a restore puts back). */
export const keptSettings = (vm: Row): Record<string, unknown> =>
  Object.fromEntries(Object.entries(vm).filter(([field]) => !(SNAPSHOT_OWN_FIELDS as readonly string[]).includes(field)));

export const snapshotsTable = table(COMPUTE.machine_snapshots, {
  description: "snapshot records of machines; snap_machine is the machine of the snapshot VM",
  keyType: "int",
  writeRole: "vmoperator",
  operations: ["list", "get", "create", "update", "delete"],
  parent: "machine",
  fields: {
    machine: { type: "row", ref: COMPUTE.machines, required: true, refMustExist: 404, createOnly: true },
    name: { type: "string", maxLength: 128, summary: true },
    description: descriptionField(),
    created: { type: "created", readOnly: true },
    expires: { type: "uint64", default: 0, description: "Unix seconds; 0 = never" },
    expires_type: { type: "string", hidden: true, enum: { date: "Set Date", never: "Never" }, description: "write-only" },
    quiesce: { type: "bool", hidden: true, default: false, createOnly: true, description: "write-only: quiesce the guest first" },
    quiesced: { type: "bool", readOnly: true, default: false },
    created_manually: { type: "bool", default: true, createOnly: true },
    snap_machine: { type: "row", ref: COMPUTE.machines, readOnly: true },
    snapshot_period: { type: "string", readOnly: true, default: null },
    queue_delete: { type: "bool", readOnly: true, default: false, description: "deletion queued (never, here: deletes are immediate)" },
  },
  hooks: {
    validate: (ctx, row) => {
      if (row.expires_type === "never") row.expires = 0;
      else if (row.expires_type === "date" && !(Number(row.expires) > ctx.nowSeconds())) {
        throw validationError("expires", "must be a future time when expires_type is date");
      }
    },
    beforeCreate: (ctx, row) => {
      const vm = vmOfMachine(ctx, row.machine);
      if (!vm || vm.is_snapshot === true) throw validationError("machine", "is not the machine of a VM");
      assertNotBusy(statusOfVm(ctx, vm));
      assertTierSpace(ctx, copyNeeds(ctx, row.machine));
      if (!row.name) row.name = `${String(vm.name)}-snapshot-${row.$key}`;
      row.quiesced = row.quiesce === true;
    },
    afterCreate: (ctx, row, caller) => {
      const vm = vmOfMachine(ctx, row.machine)!;
      const snapVm = ctx.insert(COMPUTE.vms, {
        ...keptSettings(vm),
        name: row.name,
        description: row.description,
        is_snapshot: true,
        parent_vm: vm.$key,
        machine: null,
        uuid: randomUUID(),
        created: ctx.nowSeconds(),
        modified: ctx.nowSeconds(),
        need_restart: false,
        creator: caller.user,
      });
      const machine = createMachineFor(ctx, snapVm);
      ctx.update(COMPUTE.vms, snapVm.$key, { machine });
      copyHardware(ctx, row.machine, machine, { preserveMacs: true, preserveDeviceUuids: true });
      ctx.update(COMPUTE.machine_snapshots, row.$key, { snap_machine: machine });
      runLongOperation(ctx, [row.machine], "snapshotting", DURATIONS.snapshot);
      ctx.emit(VM_EVENTS.snapshot, COMPUTE.vms, vm, { snapshot: row.$key, snapshotVm: snapVm.$key });
      return { snapshot: String(row.$key), vmkey: String(snapVm.$key), machinekey: String(machine) };
    },
    afterDelete: (ctx, row) => {
      const snapVm = ctx.find(COMPUTE.vms, (v) => v.machine === row.snap_machine && v.is_snapshot === true)[0];
      if (snapVm) {
        ctx.remove(COMPUTE.vms, snapVm.$key);
        deleteVmCascade(ctx, snapVm);
      }
    },
  },
});
