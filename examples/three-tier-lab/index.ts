// A three-tier lab: one network, web/app/db VMs each with an OS drive (the database also a data drive) and a NIC, powered on.
import * as vp from "vplatform";

const GiB = 1024 ** 3;

const net = new vp.Vnet("lab", {
  name: "three-tier",
  network: "10.40.0.0/24",
  gateway: "10.40.0.1",
  dhcpEnabled: true,
  dhcpStart: "10.40.0.100",
  dhcpStop: "10.40.0.200",
  powerState: "running", // a network passes traffic only while it runs
});

const tiers = [
  { name: "web", cpuCores: 2, ram: 2048, disk: 20 },
  { name: "app", cpuCores: 4, ram: 4096, disk: 40 },
  { name: "db", cpuCores: 4, ram: 8192, disk: 40, dataDisk: 200 },
];

export const vms = tiers.map((t) => {
  const vm = new vp.VirtualMachine(t.name, {
    name: `lab-${t.name}`,
    cpuCores: t.cpuCores,
    ram: t.ram,
    machineType: "q35",
    powerState: "running",
  });
  new vp.Drive(`${t.name}-os`, {
    machine: vm.machineKey,
    name: "os",
    media: "disk",
    interface: "virtio-scsi",
    disksize: t.disk * GiB,
    preferredTier: 3,
  });
  if (t.dataDisk) {
    new vp.Drive(`${t.name}-data`, {
      machine: vm.machineKey,
      name: "data",
      media: "disk",
      interface: "virtio-scsi",
      disksize: t.dataDisk * GiB,
      preferredTier: 1,
    });
  }
  new vp.Nic(`${t.name}-eth0`, { machine: vm.machineKey, name: "eth0", vnet: net.id, interface: "virtio" });
  return { name: vm.name, key: vm.id, machineKey: vm.machineKey, status: vm.status };
});
export const vnetKey = net.id;
