// A VM with a passthrough GPU; the GPU's resource group is looked up by name.
import * as pulumi from "@pulumi/pulumi";
import * as vp from "vplatform";

const gpuName = new pulumi.Config().get("gpu") ?? "nvidia-a100";
const gpu = vp.getResourceGroupOutput({ name: gpuName });

const vm = new vp.VirtualMachine("trainer", { name: "gpu-trainer", cpuCores: 8, ram: 32768, machineType: "q35", uefi: true });
const os = new vp.Drive("trainer-os", {
  machine: vm.machineKey,
  name: "os",
  media: "disk",
  interface: "virtio-scsi",
  disksize: 100 * 1024 ** 3,
  preferredTier: 1,
});
const device = new vp.Device("trainer-gpu", { machine: vm.machineKey, resourceGroup: gpu.uuid });
// Started once the GPU is attached: a passthrough device needs a stopped VM, so
// a VM declared running would be started, stopped for the device, and started again.
const power = new vp.VmPower("trainer-power", { vm: vm.id, state: "running" }, { dependsOn: [os, device] });

export const vmKey = vm.id;
export const gpuResourceGroup = gpu.uuid;
export const deviceUuid = device.uuid;
export const status = power.status;
