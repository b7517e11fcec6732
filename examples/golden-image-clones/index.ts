// Golden-image cloning: one template VM (with its disk), N clones of it.
import * as pulumi from "@pulumi/pulumi";
import * as vp from "vplatform";

const clones = new pulumi.Config().getNumber("clones") ?? 3;

const template = new vp.VirtualMachine("golden", {
  name: "golden-image",
  cpuCores: 2,
  ram: 2048,
  machineType: "q35",
  powerState: "stopped",
});
const disk = new vp.Drive("golden-os", {
  machine: template.machineKey,
  name: "os",
  media: "disk",
  interface: "virtio-scsi",
  disksize: 16 * 1024 ** 3,
  preferredTier: 2,
});

export const templateKey = template.id;
export const cloneKeys = Array.from({ length: clones }, (_, i) => {
  const clone = new vp.VirtualMachine(
    `clone-${i + 1}`,
    { name: `golden-clone-${i + 1}`, cloneFrom: { vm: template.id }, powerState: "running" },
    { dependsOn: [disk] }, // clone the template with its disk
  );
  return clone.id;
});
