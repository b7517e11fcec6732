import type * as pulumi from "@pulumi/pulumi";

/**
 * The platform's DELETE of a VM removes its drives, NICs and devices, so
 * hardware given a VM's `machineKey` is deleted with that VM (Pulumi's
 * `deletedWith`): destroying the VM sends no hot-unplug and no DELETE per
 * drive, while removing one drive of a VM that stays deletes it as before.
 * An explicit `deletedWith` wins.
 */
export function deletedWithItsVm(
  vm: pulumi.Resource | undefined,
  opts: pulumi.CustomResourceOptions | undefined,
): pulumi.CustomResourceOptions | undefined {
  if (!vm || opts?.deletedWith) return opts;
  return { ...opts, deletedWith: vm };
}
