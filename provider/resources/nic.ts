import { diffNic } from "../plan/diff";
import { NIC_READ_FIELDS, NicInputs, fromNicApiRow, nicInputsSchema, nicShape, toNicApiBody } from "../schemas/nic";
import { defineProvider } from "./defineProvider";
import { HardwareInputs, hardwareBehaviour } from "./hardwareResource";

type Inputs = NicInputs & HardwareInputs;

export const provider = defineProvider<Inputs, Inputs>(
  hardwareBehaviour<Inputs, Inputs>({
    token: "Nic",
    table: "machine_nics",
    noun: "NIC",
    schema: nicInputsSchema,
    shape: nicShape,
    diff: diffNic,
    toApiBody: (i, mode) => toNicApiBody(i, mode),
    fromApiRow: (row, declared) => fromNicApiRow(row, declared) as Partial<Inputs>,
    readFields: NIC_READ_FIELDS,
    references: [{ field: "vnet", table: "vnets", noun: "vnet" }],
  }),
);
