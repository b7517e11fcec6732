import { NicInputs, fromNicApiRow, nicInputsSchema, toNicApiBody } from "../schemas/nic";
import { defineProvider } from "./defineProvider";
import { HardwareInputs, hardwareBehaviour } from "./hardwareResource";

type Inputs = NicInputs & HardwareInputs;

export const provider = defineProvider<Inputs, Inputs>(
  hardwareBehaviour<Inputs, Inputs>({
    token: "Nic",
    table: "machine_nics",
    noun: "NIC",
    schema: nicInputsSchema,
    toApiBody: (i) => toNicApiBody(i),
    fromApiRow: (row) => fromNicApiRow(row) as Partial<Inputs>,
    readFields: "$key,machine,name,vnet,interface,enabled",
    replaceOn: ["machine"],
  }),
);
