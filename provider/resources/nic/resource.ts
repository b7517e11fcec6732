import { type NicInputs, nicInputsSchema, nicShape } from "./schema";
import { defineResource } from "../framework/defineResource";
import type { HardwareInputs } from "../framework/hardwareResource";
import { NIC_TABLE } from "../../schemas/tables";

export const nic = defineResource<NicInputs & HardwareInputs, NicInputs & HardwareInputs>({
  token: "Nic",
  table: NIC_TABLE,
  description: "A network interface of a VM's machine.",
  schema: nicInputsSchema,
  shape: nicShape,
  names: "perMachine",
  marker: "description",
});
