import { type ResetNic, planHardwareReset } from "./hardwareReset";

const nic = (key: string, macaddress: string, vnet = "7", extra: Partial<ResetNic> = {}): ResetNic => ({
  key,
  name: "eth0",
  macaddress,
  vnet,
  enabled: true,
  description: "[vplatform:m1]",
  interface: "virtio",
  ...extra,
});
const none = { nics: [], devices: [] };

describe("a reset puts the VM's NICs and devices back as the snapshot holds them", () => {
  test("as the snapshot: nothing to do", () => {
    expect(
      planHardwareReset({ nics: [nic("5", "AA:00:00:00:00:01")], devices: [] }, { nics: [nic("90", "aa:00:00:00:00:01")], devices: [] }),
    ).toEqual([]);
  });
  test("a NIC the snapshot does not have is removed, whatever its network", () => {
    const steps = planHardwareReset(
      { nics: [nic("5", "aa:01"), nic("6", "aa:02", "9")], devices: [] },
      { nics: [nic("90", "aa:01")], devices: [] },
    );
    expect(steps).toEqual([
      { kind: "deleteNic", key: "6", what: "removed NIC 'eth0' (aa:02) on vnet 9", object: "NIC 'eth0' (aa:02) on vnet 9" },
    ]);
  });
  test("a NIC moved to another vnet or disabled is put back; one the VM lost is added again with its MAC", () => {
    const steps = planHardwareReset(
      { nics: [nic("5", "aa:01", "9", { enabled: false })], devices: [] },
      { nics: [nic("90", "aa:01"), nic("91", "aa:03", "7", { name: "eth1" })], devices: [] },
    );
    expect(steps).toEqual([
      {
        kind: "putNic",
        key: "5",
        changes: { vnet: "7", enabled: true },
        what: "put back NIC 'eth0' (aa:01) on vnet 7",
        object: "NIC 'eth0' (aa:01) on vnet 9",
      },
      {
        kind: "addNic",
        body: { name: "eth1", macaddress: "aa:03", vnet: "7", enabled: true, description: "[vplatform:m1]", interface: "virtio" },
        what: "added back NIC 'eth1' (aa:03) on vnet 7",
        object: "NIC 'eth1' (aa:03) on vnet 7",
      },
    ]);
  });
  test("a second NIC with a saved MAC is removed; a device the snapshot does not have is removed", () => {
    const steps = planHardwareReset(
      { nics: [nic("5", "aa:01"), nic("6", "aa:01")], devices: [{ key: "3", name: "gpu", uuid: "u2" }] },
      { nics: [nic("90", "aa:01")], devices: [] },
    );
    expect(steps.map((s) => `${s.kind} ${"key" in s ? s.key : ""}`)).toEqual(["deleteNic 6", "deleteDevice 3"]);
  });
  test("no snapshot hardware, no VM hardware: nothing", () => expect(planHardwareReset(none, none)).toEqual([]));
});
