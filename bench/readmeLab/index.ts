// The benchmark's lab, written as the README's first TypeScript example: N VMs
// declared running, each with two drives and a NIC given its machineKey, on one
// vnet. Stack config: bench:vms (N), bench:dataGiB (the size of each data
// drive, which the grow changes).
import * as pulumi from "@pulumi/pulumi";
import * as vp from "vplatform";

const GiB = 1024 ** 3;
const config = new pulumi.Config("bench");
const vms = config.requireNumber("vms");
const dataGiB = config.requireNumber("dataGiB");

const net = new vp.Vnet("bench-net", { name: "bench-net", network: "10.90.0.0/16" });
for (let i = 0; i < vms; i++) {
  const vm = new vp.VirtualMachine(`bench-${i}`, { name: `bench-${i}`, cpuCores: 1, ram: 512, powerState: "running" });
  new vp.Drive(`bench-${i}-os`, { machine: vm.machineKey, name: "os", media: "disk", disksize: GiB, preferredTier: 3 });
  new vp.Drive(`bench-${i}-data`, { machine: vm.machineKey, name: "data", media: "disk", disksize: dataGiB * GiB, preferredTier: 3 });
  new vp.Nic(`bench-${i}-eth0`, { machine: vm.machineKey, vnet: net.id });
}
