import { describeChange, diffFields, named, type ResourceDiff } from "../../plan/diff";
import { virtualMachineShape } from "./schema";

/** What changing a VM does: the preview's replacements (with what a replacement loses), updates and warnings. */
export function diffVirtualMachine(olds: Record<string, unknown>, news: Record<string, unknown>): ResourceDiff {
  const what = named("VM", news);
  const d = diffFields(virtualMachineShape, olds, news, { what, namesUniqueOnPlatform: true });
  if (d.replaces.length) {
    const why = d.replaces.map((f) => describeChange(virtualMachineShape, f, olds, news)).join(", ");
    d.warnings.unshift(`${what} is REPLACED (${why}): the old VM is deleted with its drives and their data`);
  }
  return d;
}
