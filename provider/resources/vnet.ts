import { VnetInputs, fromVnetApiRow, toVnetApiBody, vnetInputsSchema } from "../schemas/vnet";
import { insertRow } from "../reconcile/insertRow";
import { quote, str } from "../reconcile/platform";
import { platformApi } from "../reconcile/runtime";
import { assertAdoptable } from "./adoption";
import { defineProvider } from "./defineProvider";
import { changedBody } from "./fieldDiff";
import { planByRules } from "./plans";
import { schemaFields } from "./schemaFields";

type Inputs = VnetInputs & { name: string; adopt?: boolean };

const READ_FIELDS = "$key,name,description,type,layer2_type,network,gateway,dnslist,mtu,dhcp_enabled,dhcp_start,dhcp_stop,rate_limit,rate_limit_burst,rate_limit_type,advanced_options";

const findByName = (name: string) => async () =>
  (await platformApi().list("vnets", { filter: `name eq ${quote(name)}`, fields: READ_FIELDS, limit: 1 }))[0];

export const provider = defineProvider<Inputs, Inputs>({
  token: "Vnet",
  schema: vnetInputsSchema,
  diff: (_id, olds, news) => planByRules(olds, news, { fields: schemaFields(vnetInputsSchema), replaceOn: ["type", "layer2Type"], uniqueName: true }),

  async create(inputs) {
    if (inputs.adopt) {
      const row = await findByName(inputs.name)();
      if (!row) throw new Error(`vplatform: adopt: no vnet named '${inputs.name}'`);
      assertAdoptable(`vnet '${inputs.name}'`, inputs, fromVnetApiRow(row, inputs));
      return { id: str(row.$key), outs: inputs };
    }
    const created = await insertRow(platformApi(), "vnets", toVnetApiBody(inputs), findByName(inputs.name));
    return { id: str(created.$key), outs: inputs };
  },

  async read(id, olds) {
    const row = await platformApi().get("vnets", id, READ_FIELDS);
    if (!row) return undefined;
    const inputs = { ...olds, ...fromVnetApiRow(row, olds) } as Inputs;
    return { outs: inputs, inputs };
  },

  async update(id, olds, news) {
    const body = changedBody(toVnetApiBody(olds), toVnetApiBody(news));
    if (Object.keys(body).length > 0) await platformApi().update("vnets", id, body);
    return news;
  },

  async delete(id) {
    await platformApi().remove("vnets", id);
  },
});
