/**
 * The SDK's bookkeeping inputs, declared once beside the table catalogue: kept beside the validated inputs, never
 * sent to the platform. The doors pass them through check; the operations read them.
 */

/** The create marker of a resource identity (see reconcile/createMarker.ts). */
export const MARKER_INPUT = "__marker";

/**
 * On a VM declared running whose hardware the program declares with it: the create leaves the VM stopped, its
 * hardware is attached cold, and a start step after the hardware starts it once.
 */
export const START_AFTER_HARDWARE_INPUT = "__startAfterHardware";

/**
 * On a VM whose power a VmPower declares (an environment file's VM, a lab's): the state it declares. The VM's own
 * recorded status is the one its create left (stopped: the VmPower starts it afterwards), so the preview judges a
 * change that needs a restart by this, not by that stale record.
 */
export const POWER_BY_VMPOWER_INPUT = "__powerByVmPower";

/** Every hidden input. */
export const HIDDEN_INPUTS: readonly string[] = [MARKER_INPUT, START_AFTER_HARDWARE_INPUT, POWER_BY_VMPOWER_INPUT];
