// Compile-time checks of the SDK's argument types, run by `npm run build`
// (tsc): each `@ts-expect-error` fails the build if the line compiles. Nothing
// here runs; the function is never called.
import * as pulumi from "@pulumi/pulumi";
import type { DeviceArgs, DriveArgs, VirtualMachineArgs, VnetArgs } from "./resources";
import type { VmPowerArgs } from "./vmPower";
import type { MachineKey } from "./types";

export function argumentTypes(vmId: pulumi.Output<string>, machineKey: pulumi.Output<MachineKey>, text: pulumi.Output<string>, flag: pulumi.Output<boolean>): unknown[] {
  const clone: VirtualMachineArgs = { name: "c", cloneFrom: { vm: vmId, quiesce: flag } }; // an output inside a nested object
  const wholeClone: VirtualMachineArgs = { name: "c", cloneFrom: pulumi.output({ vm: "7" }) }; // the whole object as an output
  const files: VirtualMachineArgs = { name: "c", cloudinitFiles: [{ name: "/user-data", contents: text }] }; // an output inside an array item
  const fileList: VirtualMachineArgs = { name: "c", cloudinitFiles: text.apply((contents) => [{ name: "/user-data", contents }]) };
  const timeouts: VirtualMachineArgs = { name: "c", powerState: "running", timeouts: { powerChange: pulumi.output(90) } };
  const drive: DriveArgs = { machine: machineKey, disksize: pulumi.output(1024) };
  const device: DeviceArgs = { machine: machineKey, resourceGroup: text, settingsArgs: { profile: text } };
  const vnet: VnetArgs = { name: "n", advancedOptions: { dnsmasq: [text, "log-dhcp"] } };
  const power: VmPowerArgs = { vm: vmId, state: "running" };
  // @ts-expect-error a VM key where the machine key belongs
  const wrongKey: DriveArgs = { machine: vmId, disksize: 1 };
  // @ts-expect-error a number where a nested boolean belongs
  const wrongNested: VirtualMachineArgs = { name: "c", cloneFrom: { vm: vmId, quiesce: pulumi.output(1) } };
  // @ts-expect-error a misspelled nested field
  const typo: VirtualMachineArgs = { name: "c", cloneFrom: { vm: vmId, quiese: true } };
  // @ts-expect-error a value outside the enum
  const badState: VmPowerArgs = { vm: vmId, state: "on" };
  return [clone, wholeClone, files, fileList, timeouts, drive, device, vnet, power, wrongKey, wrongNested, typo, badState];
}
