import { PREVIEW_UNKNOWN } from "../schemas/normalize";
import { diffVirtualMachine } from "../resources/virtualMachine/diff";
import { diffDevice } from "../resources/device/resource";
import { diffDrive } from "../resources/drive/resource";
import { nic as nicResource } from "../resources/nic/resource";
import { nicShape } from "../resources/nic/schema";
import { rowsOf } from "../resources/framework/defineResource";
import { diffRow } from "../resources/framework/automationRow";
import type { Row } from "../reconcile/platform";
import { diffVmSnapshot } from "../resources/vmSnapshot/resource";
import { diffVnet } from "../resources/vnet/resource";

const GIB = 2 ** 30;
/** A NIC's diff, as its declaration derives it (a plain row of a machine). */
const diffNic = (olds: Row, news: Row) => diffRow(nicShape, rowsOf(nicResource), olds, news);
const vm = {
  name: "web",
  cpuCores: 2,
  ram: 2048,
  machineType: "q35",
  powerCyclePolicy: "restart",
  machineKey: "54",
  status: "running",
  running: true,
};

describe("no perpetual diffs: outputs in the API's representation equal the declared inputs", () => {
  test("booleans as strings or numbers, numbers as strings, keys as numbers, versioned machine types", () => {
    const olds = { ...vm, uefi: "true", guestAgent: 1, cpuCores: "2", cluster: 1, machineType: "pc-q35-10.0" };
    const d = diffVirtualMachine(olds, { ...vm, uefi: true, guestAgent: true, cluster: "1" });
    expect(d).toMatchObject({ changes: false, replaces: [], updates: [] });
  });
  test("MAC case", () => {
    const nic = { machine: "54", vnet: "3", interface: "virtio", enabled: true };
    expect(diffNic({ ...nic, macaddress: "52:54:00:AB:CD:EF" }, { ...nic, macaddress: "52:54:00:ab:cd:ef" }).changes).toBe(false);
  });
  test("object members in another order", () => {
    const dev = { machine: "54", resourceGroup: "9a8b7c6d-5e4f-4321-8fed-cba987654321" };
    expect(
      diffDevice({ ...dev, settingsArgs: { model: "tis", version: "2" } }, { ...dev, settingsArgs: { version: "2", model: "tis" } })
        .changes,
    ).toBe(false);
  });
  test("computed outputs (machineKey, status, running) and __provider are not compared", () => {
    expect(
      diffVirtualMachine(
        { ...vm, running: false, __provider: "old" },
        { name: "web", cpuCores: 2, ram: 2048, machineType: "q35", powerCyclePolicy: "restart", __provider: "new" },
      ).changes,
    ).toBe(false);
  });
});

describe("VirtualMachine", () => {
  test("a rename is in place", () => {
    expect(diffVirtualMachine(vm, { ...vm, name: "www" })).toMatchObject({
      changes: true,
      replaces: [],
      updates: ["name"],
      powerCycle: [],
    });
  });
  test.each(["cpuCores", "ram", "uefi", "secureBoot", "nestedVirtualization", "disableHypervisor", "cpuType", "machineType"])(
    "%s needs a power cycle",
    (field) => {
      const values: Record<string, unknown> = {
        cpuCores: 4,
        ram: 4096,
        uefi: true,
        secureBoot: true,
        nestedVirtualization: true,
        disableHypervisor: true,
        cpuType: "host",
        machineType: "pc",
      };
      const d = diffVirtualMachine(vm, { ...vm, [field]: values[field] });
      expect(d).toMatchObject({ replaces: [], updates: [field], powerCycle: [field], nextStart: [] });
    },
  );
  test.each(["console", "video", "guestAgent"])("%s applies at the next start", (field) => {
    const values: Record<string, unknown> = { console: "spice", video: "qxl", guestAgent: true };
    expect(diffVirtualMachine(vm, { ...vm, [field]: values[field] })).toMatchObject({
      updates: [field],
      nextStart: [field],
      powerCycle: [],
    });
  });
  test("a machine type of another version is a change; the generic name of the same family is not", () => {
    const olds = { ...vm, machineType: "pc-q35-9.0" };
    expect(diffVirtualMachine(olds, { ...vm, machineType: "pc-q35-10.0" }).powerCycle).toEqual(["machineType"]);
    expect(diffVirtualMachine(olds, { ...vm, machineType: "q35" }).changes).toBe(false);
  });
  test("a changed cloneFrom replaces the VM, deleting first because the name stays, with a loud warning", () => {
    const d = diffVirtualMachine({ ...vm, cloneFrom: { vm: "7" } }, { ...vm, cloneFrom: { vm: "8" } });
    expect(d).toMatchObject({ replaces: ["cloneFrom"], deleteBeforeReplace: true });
    expect(d.warnings[0]).toMatch(/VM 'web' is REPLACED \(cloneFrom .*"7".*"8".*\)/);
  });
  test("a replacement under a new name is created before the old one goes", () => {
    expect(diffVirtualMachine({ ...vm, cloneFrom: { vm: "7" } }, { ...vm, name: "web2", cloneFrom: { vm: "8" } }).deleteBeforeReplace).toBe(
      false,
    );
  });
  test("adopt, timeouts and powerCyclePolicy change in place without an API call", () => {
    const d = diffVirtualMachine(vm, { ...vm, adopt: true, timeouts: { create: 60 }, powerCyclePolicy: "refuse" });
    expect(d.updates.sort()).toEqual(["adopt", "powerCyclePolicy", "timeouts"]);
    expect(d.noApiCall.sort()).toEqual(d.updates);
    expect(d.replaces).toEqual([]);
  });
  test("a dropped declaration is forgotten without an API call (the platform keeps its value)", () => {
    const { cpuCores: _c, ...news } = vm;
    expect(diffVirtualMachine(vm, news)).toMatchObject({ updates: ["cpuCores"], noApiCall: ["cpuCores"], powerCycle: [] });
  });
  test("cloud-init files are create-only in the API body but still applied (through their table), without a warning", () => {
    const d = diffVirtualMachine(
      { ...vm, cloudinitFiles: [{ name: "/a", contents: "1" }] },
      { ...vm, cloudinitFiles: [{ name: "/a", contents: "2" }] },
    );
    expect(d).toMatchObject({ updates: ["cloudinitFiles"], noApiCall: [], warnings: [] });
  });
  test("a create-only field (cluster) is recorded with a warning that it is not applied", () => {
    const d = diffVirtualMachine({ ...vm, cluster: "1" }, { ...vm, cluster: "2" });
    expect(d).toMatchObject({ updates: ["cluster"], noApiCall: ["cluster"] });
    expect(d.warnings).toEqual([expect.stringMatching(/cluster 1 → 2 is recorded but not applied/)]);
  });
  test("a power state change is in place", () => {
    expect(diffVirtualMachine({ ...vm, powerState: "stopped" }, { ...vm, powerState: "running" })).toMatchObject({
      updates: ["powerState"],
      noApiCall: [],
    });
  });
  test("secrets never appear in warnings", () => {
    const d = diffVirtualMachine(
      { ...vm, cloneFrom: { vm: "7" }, consolePassHash: "h1" },
      { ...vm, cloneFrom: { vm: "8" }, consolePassHash: "h2" },
    );
    expect(d.warnings.join(" ")).not.toMatch(/h1|h2/);
  });
  test("an unknown value during preview counts as a change", () => {
    expect(diffVirtualMachine(vm, { ...vm, cloneFrom: { vm: PREVIEW_UNKNOWN } }).replaces).toEqual(["cloneFrom"]);
    expect(diffVirtualMachine(vm, { ...vm, description: PREVIEW_UNKNOWN }).updates).toEqual(["description"]);
  });
});

describe("Drive", () => {
  const drive = { machine: "54", name: "data", media: "disk", interface: "virtio-scsi", disksize: 20 * GIB };
  test("growing is in place", () => {
    expect(diffDrive(drive, { ...drive, disksize: 30 * GIB })).toMatchObject({ replaces: [], updates: ["disksize"], warnings: [] });
  });
  test("shrinking replaces the drive, with a loud data-loss warning", () => {
    const d = diffDrive(drive, { ...drive, disksize: 10 * GIB });
    expect(d.replaces).toEqual(["disksize"]);
    expect(d.warnings).toEqual([
      "!!! drive 'data' of machine 54: disksize 20 GiB → 10 GiB would SHRINK it; drives only grow, so this REPLACES the drive and ALL ITS DATA IS LOST !!!",
    ]);
  });
  test("a size from the API as a string compares as a number", () => {
    expect(diffDrive({ ...drive, disksize: String(20 * GIB) }, drive).changes).toBe(false);
  });
  test.each([
    ["machine", "55"],
    ["media", "cdrom"],
    ["mediaSource", "9"],
  ])("%s replaces the drive and warns that its data is lost", (field, value) => {
    const d = diffDrive(drive, { ...drive, [field]: value });
    expect(d.replaces).toEqual([field]);
    expect(d.warnings[0]).toMatch(/REPLACED .*its data is lost/);
  });
  test.each([
    ["name", "data2"],
    ["interface", "virtio"],
    ["preferredTier", 2],
    ["description", "x"],
    ["showPt", true],
  ])("%s changes in place", (field, value) => {
    expect(diffDrive(drive, { ...drive, [field]: value })).toMatchObject({ replaces: [], updates: [field] });
  });
  test("the preferred tier the API returns as a string is the same tier", () => {
    expect(diffDrive({ ...drive, preferredTier: "3" }, { ...drive, preferredTier: 3 }).changes).toBe(false);
  });
  test("a machine unknown during preview (its VM is being replaced) replaces the drive", () => {
    expect(diffDrive(drive, { ...drive, machine: PREVIEW_UNKNOWN }).replaces).toEqual(["machine"]);
  });
});

describe("Nic", () => {
  const nic = { machine: "54", vnet: "3", name: "eth0", interface: "virtio", enabled: true };
  test("machine replaces", () => expect(diffNic(nic, { ...nic, machine: "55" }).replaces).toEqual(["machine"]));
  test.each([
    ["vnet", "4"],
    ["enabled", false],
    ["name", "eth1"],
    ["interface", "e1000"],
    ["macaddress", "52:54:00:00:00:01"],
  ])("%s changes in place", (field, value) => {
    expect(diffNic(nic, { ...nic, [field]: value })).toMatchObject({ replaces: [], updates: [field] });
  });
  test("a vnet key as a number is the same vnet", () => expect(diffNic({ ...nic, vnet: 3 }, nic).changes).toBe(false));
});

describe("Device", () => {
  const dev = { machine: "54", resourceGroup: "9a8b7c6d-5e4f-4321-8fed-cba987654321", settingsArgs: {}, name: "gpu" };
  test.each([
    ["machine", "55"],
    ["resourceGroup", "00000000-0000-0000-0000-000000000001"],
    ["settingsArgs", { model: "crb" }],
    ["type", "tpm"],
  ])("%s replaces", (field, value) => expect(diffDevice(dev, { ...dev, [field]: value }).replaces).toEqual([field]));
  test("name changes in place", () => expect(diffDevice(dev, { ...dev, name: "gpu2" })).toMatchObject({ replaces: [], updates: ["name"] }));
});

describe("Vnet", () => {
  const net = { name: "lan", network: "10.0.0.0/24", dhcpEnabled: true, dhcpStart: "10.0.0.10", dhcpStop: "10.0.0.99", mtu: 1500 };
  test("a new network range changes in place, with a warning about the NICs on it", () => {
    const d = diffVnet(net, { ...net, network: "10.1.0.0/24", dhcpStart: "10.1.0.10", dhcpStop: "10.1.0.99" });
    expect(d).toMatchObject({ replaces: [], updates: ["network", "dhcpStart", "dhcpStop"] });
    expect(d.warnings).toEqual(["vnet 'lan': network 10.0.0.0/24 → 10.1.0.0/24 changes the address range of every NIC on the network"]);
  });
  test("type and layer2Type replace (deleting first: vnet names are unique)", () => {
    expect(diffVnet(net, { ...net, type: "external" })).toMatchObject({ replaces: ["type"], deleteBeforeReplace: true });
    expect(diffVnet(net, { ...net, layer2Type: "vlan" }).replaces).toEqual(["layer2Type"]);
  });
  test("an MTU the API returns as a string is the same MTU", () =>
    expect(diffVnet({ ...net, mtu: "1500", dhcpEnabled: "true" }, net).changes).toBe(false));
});

describe("VmSnapshot", () => {
  const snap = { vm: "7", name: "before-upgrade", description: "d", quiesce: true };
  test.each([
    ["vm", "8"],
    ["name", "other"],
    ["description", "e"],
    ["quiesce", false],
  ])("%s replaces", (field, value) => expect(diffVmSnapshot(snap, { ...snap, [field]: value }).replaces).toEqual([field]));
  test("a replacement is created before the old snapshot goes, so a restore point always exists", () => {
    expect(diffVmSnapshot(snap, { ...snap, description: "e" }).deleteBeforeReplace).toBe(false);
  });
  test("a changed restoreTrigger is an in-place restore, announced", () => {
    const d = diffVmSnapshot({ ...snap, restoreTrigger: "1" }, { ...snap, restoreTrigger: "2" });
    expect(d).toMatchObject({ replaces: [], updates: ["restoreTrigger"], noApiCall: [] });
    expect(d.warnings).toEqual([
      "restoreTrigger changed: VM 7 is RESTORED to snapshot 'before-upgrade'; its changes since the snapshot are lost",
    ]);
  });
  test("dropping restoreTrigger restores nothing", () => {
    const d = diffVmSnapshot({ ...snap, restoreTrigger: "1" }, snap);
    expect(d).toMatchObject({ updates: ["restoreTrigger"], noApiCall: ["restoreTrigger"], warnings: [] });
  });
});
