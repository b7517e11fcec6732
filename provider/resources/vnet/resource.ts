import type { Session } from "../../reconcile/session";
import { apiUpdateBody, describeChange, diffFields, named, type ResourceDiff } from "../../plan/diff";
import { type VnetInputs, type VnetOutputs, vnetInputsSchema, vnetOutputs, vnetShape } from "./schema";
import { type VnetRef, pendingChanges, readLiveVnet, runVnetSteps } from "./platform";
import { type VnetPowerState, planVnetPower } from "../../plan/vnetPower";
import type { MachineStatus } from "../../reconcile/machineStatus";
import { type PowerTimeouts, powerTimeouts } from "../../reconcile/power";
import { withoutOutputs } from "../../schemas/outputs";
import { hasTag, markerOf, taggedDescription, withoutTag } from "../../reconcile/createMarker";
import { insertRow } from "../../reconcile/insertRow";
import { errorStatus, errorText, type Row, str } from "../../reconcile/platform";
import { deleteWhenFree } from "../../reconcile/deletions";
import { assertAdoptable, assertRecoveredMatches, findAdoptable } from "../framework/adoption";
import { resolveTimeouts } from "../framework/operationTimeouts";
import { declaredFields } from "../framework/declaredFields";
import { defineResource } from "../framework/defineResource";
import { nounOf } from "../../schemas/nouns";
import { type NameTakenRule, verifyNameFree } from "../framework/nameTaken";
import { filterLiteral, quoteLiteral } from "../../client/query-string";
import { NIC_TABLE, VM_TABLE, VNET_TABLE } from "../../schemas/tables";
import { mappingOf } from "../../schemas/fieldCodec";

type Inputs = VnetInputs & { name: string };
type Outputs = VnetOutputs & { name: string };

/** The vnet's columns, read back through its shape. */
const vnetRows = mappingOf<Inputs>(vnetShape);

const NOTHING_PENDING = { rules: false, dns: false, restart: false };

/**
 * Brings the vnet to its declared power state and applies what the platform
 * holds back (planVnetPower); resolves to the status it ends in. `found` is
 * what was read; undefined means a vnet just made (stopped, nothing pending).
 */
async function converge(api: Session, vnet: VnetRef, inputs: Inputs, found?: { row: Row; status: MachineStatus }): Promise<string> {
  const running = found?.status.running ?? false;
  const steps = planVnetPower(inputs.powerState as VnetPowerState | undefined, {
    running,
    pending: found ? pendingChanges(found.row) : NOTHING_PENDING,
  });
  await runVnetSteps(api, vnet, steps, powerTimeouts(resolveTimeouts(inputs.timeouts)));
  const last = steps.at(-1)?.kind;
  if (last === "powerOn" || last === "restart") return "running";
  if (last === "powerOff") return "stopped";
  return found?.status.status ?? "stopped";
}

const unique = (keys: string[]) => [...new Set(keys)];

const findByName = (api: Session, name: string) => async () =>
  (await api.list(VNET_TABLE, { filter: `name eq ${quoteLiteral(name)}`, fields: vnetRows.readFields, limit: 1 }))[0];

/**
 * DELETE of the vnet; undefined once it is gone, else the platform's "in use" answer. The platform deletes
 * only a stopped network (the maker's Remove-VergeNetwork powers it off first): one found running is powered off.
 */
async function removeUnlessInUse(api: Session, vnet: VnetRef, t: PowerTimeouts): Promise<string | undefined> {
  try {
    await api.remove(VNET_TABLE, vnet.vnetKey);
    return undefined;
  } catch (err) {
    if (errorStatus(err) !== 409) throw err;
    if (/in use/i.test(errorText(err))) return errorText(err);
    if (!/running/i.test(errorText(err))) throw err;
  }
  await runVnetSteps(api, vnet, [STOP_BEFORE_DELETE], t);
  return removeUnlessInUse(api, vnet, t);
}

const STOP_BEFORE_DELETE = { kind: "powerOff", reason: "powering it off to delete it" } as const;

/** What changing a vnet does: the preview's replacements, updates and warnings. */
export function diffVnet(olds: Row, news: Row): ResourceDiff {
  const what = named("vnet", news);
  const d = diffFields(vnetShape, olds, news, { what, namesUniqueOnPlatform: true });
  if (d.updates.includes("network") && !d.noApiCall.includes("network")) {
    d.warnings.push(`${what}: ${describeChange(vnetShape, "network", olds, news)} changes the address range of every NIC on the network`);
  }
  // The platform applies an MTU change on a running network only by restarting it (need_restart; the update does).
  if (d.updates.includes("mtu") && olds.status === "running" && news.powerState !== "stopped")
    d.warnings.push(`${what}: ${describeChange(vnetShape, "mtu", olds, news)} RESTARTS the running network: its traffic stops meanwhile`);
  return d;
}

/** Vnet names are unique on the platform: a new vnet named like one there would fail the `up` with 409. */
const VNET_NAMES: NameTakenRule = { table: VNET_TABLE, noun: nounOf("Vnet"), shape: vnetShape, listedFields: "$key,name", marked: true };

export const vnet = defineResource<Inputs, Outputs>({
  token: "Vnet",
  table: VNET_TABLE,
  description: "A virtual network. It passes traffic only while it runs: declare powerState running to start it and keep it so.",
  outputs: vnetOutputs,
  schema: vnetInputsSchema,
  sdk: { refuseDuplicateNames: "inProgram" },
  refreshListing: VNET_TABLE,
  diff: (_id, olds, news) => diffVnet(olds, news),
  verify: (api, inputs, unknown, olds) => verifyNameFree(VNET_NAMES, api, inputs, unknown, olds),

  async create(api, inputs) {
    if (inputs.adopt) {
      const row = await findAdoptable(`vnet '${inputs.name}'`, inputs.adopt, {
        byKey: (key) => api.get(VNET_TABLE, key, vnetRows.readFields),
        byName: findByName(api, inputs.name),
      });
      assertAdoptable(`vnet '${inputs.name}'`, inputs, vnetRows.fromApiRow(withoutTag(row), inputs));
      const ref = { vnetKey: str(row.$key), name: inputs.name };
      const live = await readLiveVnet(api, ref.vnetKey, "$key");
      if (!live) throw new Error(`vplatform: vnet '${inputs.name}' (key ${ref.vnetKey}) disappeared right after it was found`);
      return { id: ref.vnetKey, outs: { ...inputs, status: await converge(api, ref, inputs, live) } };
    }
    // Names are unique: the row of that name is ours when it carries our marker. A vnet an interrupted run made
    // answers the send with a name conflict (then it is looked for), so no look goes first.
    const marker = markerOf(inputs);
    const what = `vnet '${inputs.name}'`;
    const findOurs = async () => {
      const row = await findByName(api, inputs.name)();
      return row && hasTag(row, marker) ? row : undefined;
    };
    const body = { ...vnetRows.toApiBody(inputs), description: taggedDescription(inputs.description, marker) };
    const created = await insertRow(
      api,
      { table: VNET_TABLE, body, what, findOurs, lookFirst: false },
      resolveTimeouts(inputs.timeouts).create * 1000,
    );
    const ref = { vnetKey: str(created.$key), name: inputs.name };
    if (created.recovered) {
      assertRecoveredMatches(what, inputs, vnetRows.fromApiRow(withoutTag(created.response ?? {}), inputs), created.$key, {
        ...inputs,
        status: "unknown",
      });
      // An earlier, interrupted create may have powered it on already: its live state decides.
      const live = await readLiveVnet(api, ref.vnetKey, "$key");
      return { id: ref.vnetKey, outs: { ...inputs, status: await converge(api, ref, inputs, live) } };
    }
    return { id: ref.vnetKey, outs: { ...inputs, status: await converge(api, ref, inputs) } };
  },

  async read(api, id, olds) {
    const live = await readLiveVnet(api, id, vnetRows.readFields);
    if (!live) return undefined;
    const declared = withoutOutputs(olds, vnetOutputs);
    const inputs = { ...declared, ...vnetRows.fromApiRow(withoutTag(live.row), declaredFields(declared)) } as Inputs;
    // Power is managed only when declared; then the live status is the truth (a vnet starting counts as not running yet).
    if (declared.powerState !== undefined) inputs.powerState = live.status.running ? "running" : "stopped";
    return { outs: { ...inputs, status: live.status.status }, inputs };
  },

  async update(api, id, olds, news) {
    const body = apiUpdateBody(vnetShape, diffVnet(olds, news), news);
    if (Object.keys(body).length > 0) await api.update(VNET_TABLE, id, body);
    // Read after the PUT: the platform flags what it holds back until an apply or a restart.
    const live = await readLiveVnet(api, id, "$key");
    if (!live)
      throw new Error(`vplatform: vnet '${news.name}' (key ${id}) no longer exists; run \`pulumi refresh\` to drop it from the state`);
    return { ...news, status: await converge(api, { vnetKey: id, name: news.name }, news, live) };
  },

  async delete(api, id, olds) {
    const vnet = { vnetKey: id, name: olds.name };
    const t = resolveTimeouts(olds.timeouts);
    // Recorded running: stopped first, saving the DELETE the platform would refuse.
    if (olds.status === "running") await runVnetSteps(api, vnet, [STOP_BEFORE_DELETE], powerTimeouts(t));
    // NICs deleted with their VM (deletedWith) leave when the VM does, which may come after this deletion starts.
    await deleteWhenFree(
      api,
      {
        what: `vnet '${olds.name}'`,
        remove: () => removeUnlessInUse(api, vnet, powerTimeouts(t)),
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
      t.delete,
    );
  },
});
