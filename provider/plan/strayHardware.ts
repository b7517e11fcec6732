/**
 * A VM's stray hardware: drives and NICs on its machine that no declaration of the program made and that it did not
 * have when it was made or adopted (a clone's copies of its template's). A student's NIC on another copy's network
 * is one; so is a drive added in the platform's UI. Pure: the VM's read reports them (drift), its update removes them.
 */

export type HardwareKind = "drive" | "nic";

/** A drive or NIC of the machine, as the VM's read sees it. */
export interface MachineHardware {
  kind: HardwareKind;
  key: string;
  name: string;
  /** A create of this provider made it (its marker tag), for this program or the template's. */
  marked: boolean;
  /** A NIC's vnet. */
  vnet?: string;
}

/** The baseline as recorded in the VM's outputs: `drive:5,nic:12`. */
export const formatBaseline = (rows: readonly Pick<MachineHardware, "kind" | "key">[]): string =>
  rows
    .map((r) => `${r.kind}:${r.key}`)
    .sort()
    .join(",");

export const parseBaseline = (text: string | undefined): Set<string> => new Set((text ?? "").split(",").filter(Boolean));

/**
 * A clone made now holds copies of its source's drives and NICs (the tree's pristine clones hold the same), each
 * marked as the original is, under keys of its own. Its baseline is its unmarked copies: none when every row of the
 * source is marked (a golden VM whose hardware a program declared), known then without reading the clone; undefined
 * when the source has hardware no create made, whose copies' keys only the clone's own rows tell.
 */
export const cloneBaseline = (sourceHardware: readonly Pick<MachineHardware, "marked">[]): string | undefined =>
  sourceHardware.every((r) => r.marked) ? "" : undefined;

/** The rows neither marked nor in the baseline, in key order. */
export function strayHardware(rows: readonly MachineHardware[], baseline: string | undefined): MachineHardware[] {
  const known = parseBaseline(baseline);
  return rows
    .filter((r) => !r.marked && !known.has(`${r.kind}:${r.key}`))
    .sort((a, b) => a.kind.localeCompare(b.kind) || Number(a.key) - Number(b.key));
}

/** "NIC 'nic_12' (key 12) on vnet 7; drive 'data2' (key 40)": what a preview and a refresh say. */
export const describeStrays = (rows: readonly MachineHardware[]): string =>
  rows
    .map((r) => `${r.kind === "nic" ? "NIC" : "drive"} '${r.name}' (key ${r.key})${r.kind === "nic" && r.vnet ? ` on vnet ${r.vnet}` : ""}`)
    .join("; ");
