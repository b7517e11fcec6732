import { diffFields, named, type ResourceDiff } from "../../plan/diff";
import type { OutputValues } from "../../schemas/outputs";
import { type DeviceInputs, deviceOutputs, deviceInputsSchema, deviceShape } from "./schema";
import { type Row, str } from "../../reconcile/platform";
import { defineResource } from "../framework/defineResource";
import { type HardwareInputs, hardwareBehaviour } from "../framework/hardwareResource";
import { DEVICE_TABLE } from "../../schemas/tables";

type Inputs = DeviceInputs & HardwareInputs;
type Outputs = Inputs & OutputValues<typeof deviceOutputs>;

/** What changing a device does: the preview's replacements, updates and warnings. */
export function diffDevice(olds: Row, news: Row): ResourceDiff {
  return diffFields(deviceShape, olds, news, { what: named("device", news), namesUniqueOnPlatform: false });
}

export const device = defineResource<Inputs, Outputs>({
  description: "A passthrough device (GPU, PCI, USB, TPM) of a VM's machine.",
  outputs: deviceOutputs,
  ...hardwareBehaviour<Inputs, Outputs>({
    token: "Device",
    table: DEVICE_TABLE,
    markedIn: "name",
    schema: deviceInputsSchema,
    shape: deviceShape,
    diff: diffDevice,
    hotpluggable: false,
    extraReadFields: "uuid",
    // POST answers { response: { uuid } }; a read row carries uuid itself.
    computed: (created) => ({ uuid: str((created.response as { uuid?: unknown } | undefined)?.uuid ?? created.uuid) }),
  }),
});
