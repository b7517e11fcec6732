/** The Pulumi logical names of an environment file's entries: declared here, found by them in plans and the diagram. */

export type HardwareKind = "drive" | "nic" | "device";

/** A VM's drive, NIC or device: `web-drive-os`, `web-nic-0`. */
export const hardwareName = (vm: string, kind: HardwareKind, item: { name?: string }, index: number): string =>
  `${vm}-${kind}-${item.name ?? index}`;

/** A VM's power resource. */
export const powerName = (vm: string): string => `${vm}-power`;
