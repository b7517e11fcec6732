/**
 * Hardware of a VM being updated in place, in a preview. The engine does not know the VM's outputs until the
 * update ran (a dynamic provider cannot declare an output stable), so the `machine` the hardware is given
 * (`vm.machineKey`) is unknown, and the plan would read as a re-attach: `[diff: ~machine]`. An update never
 * changes a VM's machine key; only a replacement does, and a replaced VM's key (`vm`) is unknown too. So while
 * `vm` is known and the same as recorded, the recorded machine stands. Pure.
 */
import { PREVIEW_UNKNOWN, containsPreviewUnknown } from "../schemas/normalize";

type Row = Record<string, unknown>;

export function machineOfUpdatedVm(olds: Row | undefined, news: Row): Row {
  const sameVm = olds?.vm !== undefined && news.vm === olds.vm && !containsPreviewUnknown(news.vm);
  if (news.machine !== PREVIEW_UNKNOWN || !sameVm || olds?.machine === undefined) return news;
  return { ...news, machine: olds.machine };
}
