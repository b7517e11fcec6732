// What the class bench (and the clone-tree tests) check of the copies a run made: from the emulator's
// recorder, whether the clones went through a tree (clones made from clones, several sources cloning at
// once); from the platform, whether each VM is what its template's other copies are.
import type { RecordedExchange } from "../../emulator/admin/recorder";

/** A clone request the recorder saw: from which VM, making which (its key, from the answer), when. */
export interface CloneSent {
  from: string;
  name: string;
  made?: string;
  /** Ms since the epoch the request arrived. */
  at: number;
}

export function clonesIn(recorded: RecordedExchange[]): CloneSent[] {
  return recorded
    .filter((r) => r.method === "POST" && /\/v4\/vm_actions/.test(r.url) && (r.body as { action?: string })?.action === "clone")
    .map((r) => {
      const body = r.body as { vm: string; params: { name: string } };
      const answer = r.answer as { response?: { vmkey?: string } } | undefined;
      const made = answer?.response?.vmkey;
      return { from: String(body.vm), name: body.params.name, ...(made === undefined ? {} : { made: String(made) }), at: Date.parse(r.at) };
    });
}

/** How the clones were made: how many came from a clone, and the most sources cloning at once (a clone lasting `cloneMs`). */
export function cloneTree(clones: CloneSent[], cloneMs: number): { clones: number; fromClones: number; sourcesAtOnce: number } {
  const made = new Set(clones.map((c) => c.made));
  const sourcesAt = (t: number) => new Set(clones.filter((c) => c.at <= t && t < c.at + cloneMs).map((c) => c.from)).size;
  return {
    clones: clones.length,
    fromClones: clones.filter((c) => made.has(c.from)).length,
    sourcesAtOnce: Math.max(0, ...clones.map((c) => sourcesAt(c.at))),
  };
}

type Row = Record<string, unknown>;

/** Reads of the platform: a table query (`/v4/...`) and a drive's content marker (the emulator's admin door). */
export interface PlatformReader {
  api(path: string): Promise<Row[]>;
  content(driveKey: string): Promise<unknown>;
}

/** What makes each VM itself rather than a copy: its keys, name, description, identity, times, status. */
const OWN_VM_FIELDS = ["$key", "machine", "name", "description", "uuid", "created", "modified", "creator", "status", "dashboard"];
const OWN_HARDWARE_FIELDS = ["$key", "machine", "status", "modified", "created", "macaddress"];

/** The row without `fields`; a description without the create marker each row is tagged with (see createMarker.ts). */
const without = (row: Row, fields: string[]) =>
  Object.fromEntries(
    Object.entries(row)
      .filter(([k]) => !fields.includes(k))
      .map(([k, v]) => [k, k === "description" && typeof v === "string" ? v.replace(/\s*\[vplatform:[^\]]*\]/g, "") : v]),
  );
const q = (filter: string) => encodeURIComponent(filter);

/** A VM as its copies should share it: settings, drives with their content, NICs (their MACs apart, each VM's own). */
export async function vmShape(read: PlatformReader, name: string) {
  const [vm] = await read.api(`/v4/vms?filter=${q(`name eq '${name}' and is_snapshot eq false`)}&fields=all`);
  if (!vm) throw new Error(`no VM named '${name}'`);
  const drives = await read.api(`/v4/machine_drives?filter=${q(`machine eq ${vm.machine}`)}&fields=all&sort=name`);
  const nics = await read.api(`/v4/machine_nics?filter=${q(`machine eq ${vm.machine}`)}&fields=all&sort=name`);
  return {
    settings: without(vm, OWN_VM_FIELDS),
    drives: drives.map((d) => without(d, OWN_HARDWARE_FIELDS)),
    content: await Promise.all(drives.map((d) => read.content(String(d.$key)))),
    nics: nics.map((n) => without(n, OWN_HARDWARE_FIELDS)),
    macs: nics.map((n) => String(n.macaddress)),
  };
}

/**
 * The VMs of the class that differ from copy 1's VM of the same template, each with what differs; none when
 * the copies are equal. A NIC's vnet and address are its copy's own network's, and MACs are each VM's own.
 */
export async function copiesDiffering(read: PlatformReader, copyNames: string[], templates: string[]): Promise<string[]> {
  const differing: string[] = [];
  const comparable = async (vm: string) => {
    const { macs: _macs, nics, ...shape } = await vmShape(read, vm);
    return { ...shape, nics: nics.map((n) => without(n, ["vnet", "ipaddress"])) };
  };
  for (const template of templates) {
    const first = JSON.stringify(await comparable(`${copyNames[0]}-${template}`));
    for (const copy of copyNames.slice(1)) {
      if (JSON.stringify(await comparable(`${copy}-${template}`)) !== first) differing.push(`${copy}-${template}`);
    }
  }
  return differing;
}

/** The class bench's line of an up: time to the last VM running, the tree, whether the copies are equal. */
export function madeLine(m: { readySeconds: number; tree: ReturnType<typeof cloneTree>; differing: string[] }): string {
  const { clones, fromClones, sourcesAtOnce } = m.tree;
  const equal = m.differing.length === 0 ? "the copies are equal" : `copies differing from copy 1: ${m.differing.join(", ")}`;
  return (
    `last VM running ${m.readySeconds.toFixed(0)} s after the start; ${clones} clones, ${fromClones} of them from clones, ` +
    `up to ${sourcesAtOnce} sources cloning at once; ${equal}`
  );
}
