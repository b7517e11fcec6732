/**
 * Option lists of enumerated fields: value → label, as the platform's table schemas give them
 * (`$table` `.list`) and as `display(field)` answers. Labels are the values in words
 * ("shutting_down" → "Shutting Down", "virtio-scsi" → "Virtio SCSI"); `overrides` names the rest.
 */
const WORDS: Record<string, string> = {
  scsi: "SCSI",
  ide: "IDE",
  ahci: "AHCI",
  nvme: "NVMe",
  uefi: "UEFI",
  gpu: "GPU",
  vgpu: "vGPU",
  usb: "USB",
  pci: "PCI",
  nic: "NIC",
  tpm: "TPM",
  dmz: "DMZ",
  utc: "UTC",
  vnc: "VNC",
};

export function label(value: string): string {
  if (value === "") return "None";
  return value
    .split(/[_\s]+|-(?=[a-z])/)
    .map((word) => WORDS[word] ?? word.charAt(0).toUpperCase() + word.slice(1))
    .join(" ");
}

export function options(values: readonly string[], overrides: Record<string, string> = {}): Record<string, string> {
  return Object.fromEntries(values.map((v) => [v, overrides[v] ?? label(v)]));
}
