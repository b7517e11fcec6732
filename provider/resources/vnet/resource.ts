import type { Session } from "../../reconcile/session";
import { apiUpdateBody, describeChange, diffFields, named, type ResourceDiff } from "../../plan/diff";
import { VNET_READ_FIELDS, type VnetInputs, fromVnetApiRow, toVnetApiBody, vnetInputsSchema, vnetShape } from "./schema";
import { hasTag, markerOf, taggedDescription, withoutTag } from "../../reconcile/createMarker";
import { insertRow } from "../../reconcile/insertRow";
import { errorStatus, errorText, type Row, str } from "../../reconcile/platform";
import { deleteWhenFree } from "../../reconcile/deletions";
import { assertAdoptable, assertRecoveredMatches, findAdoptable } from "../framework/adoption";
import { resolveTimeouts } from "../framework/operationTimeouts";
import { declaredFields } from "../framework/declaredFields";
import { defineResource } from "../framework/defineResource";
import { filterLiteral, quoteLiteral } from "../../client/query-string";
import { NIC_TABLE } from "../nic/schema";
import { VM_TABLE } from "../virtualMachine/schema";
import { VNET_TABLE } from "./schema";

type Inputs = VnetInputs & { name: string };

const unique = (keys: string[]) => [...new Set(keys)];

const findByName = (api: Session, name: string) => async () =>
  (await api.list(VNET_TABLE, { filter: `name eq ${quoteLiteral(name)}`, fields: VNET_READ_FIELDS, limit: 1 }))[0];

/** DELETE of the vnet; undefined once it is gone, else the platform's "in use" answer. */
async function removeUnlessInUse(api: Session, id: string): Promise<string | undefined> {
  try {
    await api.remove(VNET_TABLE, id);
    return undefined;
  } catch (err) {
    if (errorStatus(err) === 409 && /in use/i.test(errorText(err))) return errorText(err);
    throw err;
  }
}

/** What changing a vnet does: the preview's replacements, updates and warnings. */
export function diffVnet(olds: Row, news: Row): ResourceDiff {
  const what = named("vnet", news);
  const d = diffFields(vnetShape, olds, news, { what, namesUniqueOnPlatform: true });
  if (d.updates.includes("network") && !d.noApiCall.includes("network")) {
    d.warnings.push(`${what}: ${describeChange(vnetShape, "network", olds, news)} changes the address range of every NIC on the network`);
  }
  return d;
}

export const vnet = defineResource<Inputs, Inputs>({
  token: "Vnet",
  table: VNET_TABLE,
  description: "A virtual network.",
  schema: vnetInputsSchema,
  sdk: { refuseDuplicateNames: "inProgram" },
  diff: (_id, olds, news) => diffVnet(olds, news),

  async create(api, inputs) {
    if (inputs.adopt) {
      const row = await findAdoptable(`vnet '${inputs.name}'`, inputs.adopt, {
        byKey: (key) => api.get(VNET_TABLE, key, VNET_READ_FIELDS),
        byName: findByName(api, inputs.name),
      });
      assertAdoptable(`vnet '${inputs.name}'`, inputs, fromVnetApiRow(withoutTag(row), inputs));
      return { id: str(row.$key), outs: inputs };
    }
    // Names are unique: the row of that name is ours when it carries our marker.
    const marker = markerOf(inputs);
    const what = `vnet '${inputs.name}'`;
    const findOurs = async () => {
      const row = await findByName(api, inputs.name)();
      return row && hasTag(row, marker) ? row : undefined;
    };
    const body = { ...toVnetApiBody(inputs), description: taggedDescription(inputs.description, marker) };
    const created = await insertRow(api, { table: VNET_TABLE, body, what, findOurs }, resolveTimeouts(inputs.timeouts).create * 1000);
    if (created.recovered)
      assertRecoveredMatches(what, inputs, fromVnetApiRow(withoutTag(created.response ?? {}), inputs), created.$key, inputs);
    return { id: str(created.$key), outs: inputs };
  },

  async read(api, id, olds) {
    const row = await api.get(VNET_TABLE, id, VNET_READ_FIELDS);
    if (!row) return undefined;
    const inputs = { ...olds, ...fromVnetApiRow(withoutTag(row), declaredFields(olds)) } as Inputs;
    return { outs: inputs, inputs };
  },

  async update(api, id, olds, news) {
    const body = apiUpdateBody(vnetShape, diffVnet(olds, news), news);
    if (Object.keys(body).length > 0) await api.update(VNET_TABLE, id, body);
    return news;
  },

  async delete(api, id, olds) {
    // NICs deleted with their VM (deletedWith) leave when the VM does, which may come after this deletion starts.
    await deleteWhenFree(
      api,
      {
        what: `vnet '${olds.name}'`,
        remove: () => removeUnlessInUse(api, id),
        users: async () =>
          unique(
            (await api.list(NIC_TABLE, { filter: `vnet eq ${filterLiteral(id)}`, fields: "$key,machine" })).map((r) => str(r.machine)),
          ),
        name: async (machines) => {
          const vms = await api.list(VM_TABLE, {
            filter: machines.map((m) => `machine eq ${filterLiteral(m)}`).join(" or "),
            fields: "name,machine",
          });
          return machines.map((m) => {
            const vm = vms.find((v) => str(v.machine) === m);
            return vm ? `the NIC(s) of VM '${str(vm.name)}'` : `the NIC(s) of machine ${m}`;
          });
        },
      },
      resolveTimeouts(olds.timeouts).delete,
    );
  },
});
