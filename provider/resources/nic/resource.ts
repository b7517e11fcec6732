import type { Row } from "../../reconcile/platform";
import { diffFields, named, type ResourceDiff } from "../../plan/diff";
import { type NicInputs, nicInputsSchema, nicShape } from "./schema";
import { defineResource } from "../framework/defineResource";
import { type HardwareInputs, hardwareBehaviour } from "../framework/hardwareResource";
import { NIC_TABLE } from "../../schemas/tables";

type Inputs = NicInputs & HardwareInputs;

/** What changing a nic does: the preview's replacements, updates and warnings. */
export function diffNic(olds: Row, news: Row): ResourceDiff {
  return diffFields(nicShape, olds, news, { what: named("NIC", news), namesUniqueOnPlatform: false });
}

export const nic = defineResource<Inputs, Inputs>({
  description: "A network interface of a VM's machine.",
  ...hardwareBehaviour<Inputs, Inputs>({
    token: "Nic",
    table: NIC_TABLE,
    markedIn: "description",
    schema: nicInputsSchema,
    shape: nicShape,
    diff: diffNic,
  }),
});
