// Compile-time checks of the SDK's argument types, run by `npm run build`
// (tsc): each `@ts-expect-error` fails the build if the line compiles. Nothing
// here runs; the function is never called.
import * as pulumi from "@pulumi/pulumi";
import { getMediaFileByPathOutput, getTableRowsOutput, getVnetOutput, getVolumeFilesOutput, readTableOutput } from "./lookups";
import type { LabArgs } from "./lab";
import { type DeviceArgs, type DriveArgs, VirtualMachine, type VirtualMachineArgs, Vnet, type VnetArgs } from "./resources";
import type { VmPowerArgs } from "./vmPower";
import { machineKey as keyOf, type MachineKey } from "./types";
import { Provider } from "./provider";

export function argumentTypes(
  vmId: pulumi.Output<string>,
  machineKey: pulumi.Output<MachineKey>,
  text: pulumi.Output<string>,
  flag: pulumi.Output<boolean>,
): unknown[] {
  const clone: VirtualMachineArgs = { name: "c", cloneFrom: { vm: vmId, quiesce: flag } }; // an output inside a nested object
  const promised: VirtualMachineArgs = { name: "c", cloneFrom: { vm: Promise.resolve("7") } }; // a promise inside a nested object
  const wholeClone: VirtualMachineArgs = { name: "c", cloneFrom: pulumi.output({ vm: "7" }) }; // the whole object as an output
  const files: VirtualMachineArgs = { name: "c", cloudinitFiles: [{ name: "/user-data", contents: text }] }; // an output inside an array item
  const fileList: VirtualMachineArgs = { name: "c", cloudinitFiles: text.apply((contents) => [{ name: "/user-data", contents }]) };
  const timeouts: VirtualMachineArgs = { name: "c", powerState: "running", timeouts: { powerChange: pulumi.output(90) } };
  const drive: DriveArgs = { machine: machineKey, disksize: pulumi.output(1024) };
  const knownKey: DriveArgs = { machine: keyOf(12), disksize: 1 }; // a machine key known as text, branded by machineKey()
  const device: DeviceArgs = { machine: machineKey, resourceGroup: text, settingsArgs: { profile: text } };
  const vnet: VnetArgs = { name: "n", advancedOptions: { dnsmasq: [text, "log-dhcp"] } };
  const power: VmPowerArgs = { vm: vmId, state: "running" };
  const lookups = [getVnetOutput({ name: text }), readTableOutput({ table: "nodes", filter: text, fields: [text, "name"] })];
  const iso = getMediaFileByPathOutput({ volume: "nas", path: text });
  const cdrom: DriveArgs = { machine: machineKey, media: "cdrom", mediaSource: iso.id }; // a NAS file's media file
  const rows = getTableRowsOutput({ table: "clusters", fields: ["name", text], limit: pulumi.output(5) }).rows;
  // @ts-expect-error a misspelled look-up argument
  const badArgument = getVolumeFilesOutput({ volume: "nas", directry: "images" });
  // @ts-expect-error text where a look-up's number belongs
  const badLimit = getVolumeFilesOutput({ volume: "nas", limit: "10" });
  // @ts-expect-error a VM key where the machine key belongs
  const wrongKey: DriveArgs = { machine: vmId, disksize: 1 };
  // @ts-expect-error plain text where the machine key belongs
  const textKey: DriveArgs = { machine: "12", disksize: 1 };
  // @ts-expect-error a number where a nested boolean belongs
  const wrongNested: VirtualMachineArgs = { name: "c", cloneFrom: { vm: vmId, quiesce: pulumi.output(1) } };
  // @ts-expect-error a number where text belongs, inside an array item
  const wrongItem: VirtualMachineArgs = { name: "c", cloudinitFiles: [{ name: "/user-data", contents: pulumi.output(1) }] };
  // @ts-expect-error a misspelled nested field
  const typo: VirtualMachineArgs = { name: "c", cloneFrom: { vm: vmId, quiese: true } };
  // @ts-expect-error a value outside the enum
  const badState: VmPowerArgs = { vm: vmId, state: "on" };
  // @ts-expect-error a number where a look-up's nested text belongs
  const badLookup = readTableOutput({ table: "nodes", fields: [pulumi.output(1)] });
  const site = new Provider("site-b", { endpoint: text, apiKey: pulumi.secret("k"), insecure: flag, requestBudget: 500 });
  const onSite = getVnetOutput({ name: text }, { provider: site });
  // @ts-expect-error a setting the provider does not have
  const badSetting = new Provider("site-c", { endpont: "https://b.example" });
  // @ts-expect-error text where a numeric setting belongs
  const badBudget = new Provider("site-d", { requestBudget: "500" });
  const golden = new VirtualMachine("golden", { name: "golden" });
  const shared = new Vnet("shared", { name: "shared" });
  const lab: LabArgs = {
    copies: 30,
    pool: "10.100.0.0/16",
    vms: [
      { name: "web", cloneFrom: { vm: golden, quiesce: flag }, nics: [{}, { vnet: shared }], drives: [{ disksize: 1024 }] },
      { name: "db", cloneFrom: { vm: "web" }, nics: [{ vnet: text }], powerState: "running" }, // a VM of the template, by name
    ],
    user: { role: "vmoperator" },
    apiKey: { expires: "never" },
    resetSnapshot: "start",
  };
  // @ts-expect-error a lab's copy names its own vnet: no network of its own
  const ownNetwork: LabArgs = { copies: 1, pool: "10.0.0.0/16", vms: [], vnet: { network: "10.1.0.0/24" } };
  // @ts-expect-error a copy's key is its user's: no other user
  const otherUser: LabArgs = { copies: 1, pool: "10.0.0.0/16", vms: [], user: {}, apiKey: { user: "7" } };
  // @ts-expect-error a lab VM's name is plain text (it names the copy's VM and its hardware)
  const outputName: LabArgs = { copies: 1, pool: "10.0.0.0/16", vms: [{ name: text }] };
  return [
    lab,
    ownNetwork,
    otherUser,
    outputName,
    clone,
    promised,
    wholeClone,
    files,
    fileList,
    timeouts,
    drive,
    knownKey,
    device,
    vnet,
    power,
    lookups,
    cdrom,
    rows,
    badArgument,
    onSite,
    badSetting,
    badBudget,
    badLimit,
    wrongKey,
    textKey,
    wrongNested,
    wrongItem,
    typo,
    badState,
    badLookup,
  ];
}
