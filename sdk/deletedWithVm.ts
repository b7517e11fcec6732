import type * as pulumi from "@pulumi/pulumi";
import { economyOn } from "../provider/reconcile/requestEconomy";

/**
 * The platform's DELETE of a VM removes its drives, NICs and devices, so
 * hardware given a VM's `machineKey` is deleted with that VM (Pulumi's
 * `deletedWith`): destroying the VM sends no hot-unplug and no DELETE per
 * drive, while removing one drive of a VM that stays deletes it as before.
 * An explicit `deletedWith` wins; VPLATFORM_BASELINE=deletedWith turns it off
 * (for the benchmark's baseline).
 */
export function deletedWithItsVm(vm: pulumi.Resource | undefined, opts: pulumi.CustomResourceOptions | undefined): pulumi.CustomResourceOptions | undefined {
  if (!vm || opts?.deletedWith || !economyOn("deletedWith")) return opts;
  return { ...opts, deletedWith: vm };
}
