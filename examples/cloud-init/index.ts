// A VM seeded with cloud-init files (NoCloud datasource), powered on.
import * as vp from "vplatform";

const userData = `#cloud-config
hostname: seeded
users:
  - name: ops
    ssh_authorized_keys: [ "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIExampleKeyOnly ops@example" ]
packages: [nginx]
`;

const vm = new vp.VirtualMachine("seeded", {
  name: "cloud-init-seeded",
  cpuCores: 1,
  ram: 1024,
  machineType: "q35",
  cloudinitDatasource: "nocloud",
  cloudinitFiles: [
    { name: "/user-data", contents: userData },
    { name: "/meta-data", contents: "instance-id: seeded-1\nlocal-hostname: seeded\n" },
  ],
  powerState: "running",
});
new vp.Drive("seeded-os", { machine: vm.machineKey, name: "os", media: "disk", interface: "virtio-scsi", disksize: 10 * 1024 ** 3 });

export const vmKey = vm.id;
export const status = vm.status;
