/**
 * A VM's drives and NICs as the stray-hardware plan (provider/plan/strayHardware.ts) sees them, and their removal:
 * the look-ups join those of the other VMs of the run (a class's refresh reads them in a handful of GETs).
 */
import { type HardwareKind, type MachineHardware, describeStrays } from "../plan/strayHardware";
import type { PowerCyclePolicy } from "../schemas/hardware";
import type { OperationTimeouts } from "../schemas/timeouts";
import { hasAnyTag } from "./createMarker";
import { changeHardware, findMachineOwner } from "./hardware";
import { rowsWhere, str } from "./platform";
import type { Session } from "./session";
import { DRIVE_TABLE, NIC_TABLE } from "../schemas/tables";

const TABLE_OF: Record<HardwareKind, string> = { drive: DRIVE_TABLE, nic: NIC_TABLE };

/** The machine's drives and NICs: whether a create of this provider made each (its tag), a NIC's vnet. */
export async function machineHardware(api: Session, machineKey: string): Promise<MachineHardware[]> {
  const [drives, nics] = await Promise.all([
    rowsWhere(api, DRIVE_TABLE, "machine", machineKey, "$key,name,description"),
    rowsWhere(api, NIC_TABLE, "machine", machineKey, "$key,name,description,vnet"),
  ]);
  const row = (kind: HardwareKind) => (r: Record<string, unknown>) => ({
    kind,
    key: str(r.$key),
    name: str(r.name),
    marked: hasAnyTag(r),
    ...(kind === "nic" ? { vnet: str(r.vnet) } : {}),
  });
  return [...drives.map(row("drive")), ...nics.map(row("nic"))];
}

/**
 * Deletes the stray drives and NICs of the VM. A running VM is stopped for it as its power-cycle policy says (a
 * drive must be unplugged before it goes, a NIC too without hotplug): one stop and one start for all of them.
 */
export async function removeStrays(
  api: Session,
  machineKey: string,
  strays: readonly MachineHardware[],
  policy: PowerCyclePolicy,
  t: OperationTimeouts,
): Promise<void> {
  if (strays.length === 0) return;
  const owner = await findMachineOwner(api, machineKey, { live: true });
  if (!owner) return; // the VM is gone, its hardware with it
  console.log(`vplatform: VM '${owner.ref.name}': removing hardware its program does not declare: ${describeStrays(strays)}`);
  await changeHardware(api, { ...owner, allowHotplug: false }, "removing hardware added outside the program", policy, t, async () => {
    for (const s of strays) await api.remove(TABLE_OF[s.kind], s.key);
  });
}
