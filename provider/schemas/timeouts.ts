/** Per-operation time limits in seconds, as the reconciler uses them. */
export interface OperationTimeouts {
  create: number;
  update: number;
  clone: number;
  snapshot: number;
  restore: number;
  powerChange: number;
  delete: number;
  gracefulShutdown: number;
  forcedShutdown: number;
  reboot: number;
  /** Hot-unplug of a drive (not in the spec's list; the maker's provider waits up to 5 min). */
  hotplug: number;
}
