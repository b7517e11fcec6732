import { apiUpdateBody, diffVnet } from "../plan/diff";
import { VNET_READ_FIELDS, VnetInputs, fromVnetApiRow, toVnetApiBody, vnetInputsSchema, vnetShape } from "../schemas/vnet";
import { hasTag, markerOf, taggedDescription, withoutTag } from "../reconcile/createMarker";
import { insertRow } from "../reconcile/insertRow";
import { quote, str } from "../reconcile/platform";
import { platformApi } from "../reconcile/runtime";
import { assertAdoptable, assertRecoveredMatches, findAdoptable } from "./adoption";
import { resolveTimeouts } from "./operationTimeouts";
import { declaredFields } from "./declaredFields";
import { defineProvider } from "./defineProvider";

type Inputs = VnetInputs & { name: string };

const findByName = (name: string) => async () =>
  (await platformApi().list("vnets", { filter: `name eq ${quote(name)}`, fields: VNET_READ_FIELDS, limit: 1 }))[0];

export const provider = defineProvider<Inputs, Inputs>({
  token: "Vnet",
  schema: vnetInputsSchema,
  diff: (_id, olds, news) => diffVnet(olds, news),

  async create(inputs) {
    if (inputs.adopt) {
      const row = await findAdoptable(`vnet '${inputs.name}'`, inputs.adopt, {
        byKey: (key) => platformApi().get("vnets", key, VNET_READ_FIELDS),
        byName: findByName(inputs.name),
      });
      assertAdoptable(`vnet '${inputs.name}'`, inputs, fromVnetApiRow(withoutTag(row), inputs));
      return { id: str(row.$key), outs: inputs };
    }
    // Names are unique: the row of that name is ours when it carries our marker.
    const marker = markerOf(inputs);
    const what = `vnet '${inputs.name}'`;
    const findOurs = async () => {
      const row = await findByName(inputs.name)();
      return row && hasTag(row, marker) ? row : undefined;
    };
    const body = { ...toVnetApiBody(inputs), description: taggedDescription(inputs.description, marker) };
    const created = await insertRow(platformApi(), { table: "vnets", body, what, findOurs }, resolveTimeouts(inputs.timeouts).create * 1000);
    if (created.recovered) assertRecoveredMatches(what, inputs, fromVnetApiRow(withoutTag(created.response ?? {}), inputs), created.$key, inputs);
    return { id: str(created.$key), outs: inputs };
  },

  async read(id, olds) {
    const row = await platformApi().get("vnets", id, VNET_READ_FIELDS);
    if (!row) return undefined;
    const inputs = { ...olds, ...fromVnetApiRow(withoutTag(row), declaredFields(olds)) } as Inputs;
    return { outs: inputs, inputs };
  },

  async update(id, olds, news) {
    const body = apiUpdateBody(vnetShape, diffVnet(olds, news), news);
    if (Object.keys(body).length > 0) await platformApi().update("vnets", id, body);
    return news;
  },

  async delete(id) {
    await platformApi().remove("vnets", id);
  },
});
