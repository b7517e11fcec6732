/**
 * Putting a VM's NICs and devices back as its reset snapshot holds them (a restore brings back its drives and its
 * settings, not these): a NIC or device the snapshot does not have is removed (a student's NIC, on any network), a NIC
 * it has that the VM lost is added again, one moved to another vnet or disabled is put back. A snapshot keeps its
 * NICs' MAC addresses and its devices' UUIDs, so that is how they are matched. Pure: provider/reconcile/reset.ts runs it.
 */

export interface ResetNic {
  key: string;
  name: string;
  macaddress: string;
  vnet: string;
  enabled: boolean;
  description: string;
  interface: string;
}

export interface ResetDevice {
  key: string;
  name: string;
  uuid: string;
}

export interface MachineNicsAndDevices {
  nics: ResetNic[];
  devices: ResetDevice[];
}

/** Each step says what it does (`what`, once done) to which NIC or device (`object`). */
export type HardwareResetStep = { what: string; object: string } & (
  | { kind: "deleteNic" | "deleteDevice"; key: string }
  | { kind: "putNic"; key: string; changes: { vnet?: string; enabled?: boolean } }
  | { kind: "addNic"; body: Omit<ResetNic, "key"> }
);

const nicWhat = (n: ResetNic) => `NIC '${n.name}' (${n.macaddress}) on vnet ${n.vnet}`;

/** What to do so the VM's NICs and devices are the snapshot's; nothing when they are. */
export function planHardwareReset(vm: MachineNicsAndDevices, snapshot: MachineNicsAndDevices): HardwareResetStep[] {
  const steps: HardwareResetStep[] = [];
  const saved = new Map(snapshot.nics.map((n) => [n.macaddress.toLowerCase(), n]));
  const present = new Set<string>();
  for (const nic of vm.nics) {
    const mac = nic.macaddress.toLowerCase();
    const was = saved.get(mac);
    if (!was || present.has(mac)) {
      steps.push({ kind: "deleteNic", key: nic.key, what: `removed ${nicWhat(nic)}`, object: nicWhat(nic) });
      continue;
    }
    present.add(mac);
    const changes = {
      ...(nic.vnet !== was.vnet ? { vnet: was.vnet } : {}),
      ...(nic.enabled !== was.enabled ? { enabled: was.enabled } : {}),
    };
    if (Object.keys(changes).length > 0)
      steps.push({ kind: "putNic", key: nic.key, changes, what: `put back ${nicWhat(was)}`, object: nicWhat(nic) });
  }
  for (const [mac, was] of saved) {
    if (present.has(mac)) continue;
    const { key: _snapshotsOwn, ...body } = was;
    steps.push({ kind: "addNic", body, what: `added back ${nicWhat(was)}`, object: nicWhat(was) });
  }
  const uuids = new Set(snapshot.devices.map((d) => d.uuid));
  for (const device of vm.devices)
    if (!uuids.has(device.uuid))
      steps.push({ kind: "deleteDevice", key: device.key, what: `removed device '${device.name}'`, object: `device '${device.name}'` });
  return steps;
}
