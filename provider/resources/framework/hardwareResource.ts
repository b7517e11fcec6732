import type { Session } from "../../reconcile/session";
import type { z } from "zod";
import { type ResourceDiff, apiUpdateBody } from "../../plan/diff";
import { PREVIEW_UNKNOWN } from "../../schemas/normalize";
import type { Shape } from "../../schemas/common";
import { changeHardware, findMachineOwner, type MachineOwner, waitUntilPluggedIn } from "../../reconcile/hardware";
import { madeByThisProcess } from "../../reconcile/machineOwners";
import { hasTag, markerOf, taggedDescription, withoutTag } from "../../reconcile/createMarker";
import { type Inserted, insertRow } from "../../reconcile/insertRow";
import { type CreatedRow, type Row, errorText, rowsWhere, str } from "../../reconcile/platform";
import { OWNER_INPUTS, type PowerCyclePolicy } from "../../schemas/hardware";
import type { OperationTimeouts } from "../../schemas/timeouts";
import { assertAdoptable, assertRecoveredMatches, findAdoptable } from "./adoption";
import { declaredFields } from "./declaredFields";
import { PartialCreateError, type ResourceBehaviour } from "./defineProvider";
import { verifyMachineKey } from "./machineKeyCheck";
import { resolveTimeouts } from "./operationTimeouts";
import { quoteLiteral } from "../../client/query-string";
import { mappingOf } from "../../schemas/fieldCodec";
import { nounOf } from "../../schemas/nouns";

/** Inputs every hardware row has. */
export interface HardwareInputs extends Row {
  machine: string;
  vm?: string;
  powerCyclePolicy?: PowerCyclePolicy;
  name?: string;
  adopt?: boolean | string;
  timeouts?: Partial<OperationTimeouts>;
}

export interface HardwareSpec<I extends HardwareInputs, O extends I> {
  token: string;
  table: string;
  /**
   * Where a row carries the create marker: in its `description` (drives, NICs), or, for rows that have
   * none (devices), in the name of an unnamed row (a named one is found by its machine and name).
   */
  markedIn: "description" | "name";
  schema: z.ZodType;
  shape: Shape;
  /** The resource's diff from provider/plan (replacements, data-loss warnings). */
  diff(olds: Row, news: Row): ResourceDiff;
  toApiBody(inputs: I, mode?: "create" | "update"): Row;
  /** The live row as inputs; with `declared`, only the declared fields. */
  fromApiRow(row: Row, declared?: Row): Partial<I>;
  /** False for rows a running machine cannot take live (passthrough devices), whatever allow_hotplug says. */
  hotpluggable?: boolean;
  readFields: string;
  /** Computed outputs from the creation answer (e.g. a device's uuid). */
  computed?(created: Row, inputs: I): Partial<O>;
  /** Removal from a running VM when it is not just a plain DELETE (drive hot-unplug). */
  removeLive?(api: Session, owner: MachineOwner, id: string, olds: O, t: OperationTimeouts): Promise<void> | undefined;
}

/** The owner as the change sees it: rows that cannot be hot-plugged need a stopped machine. */
const hotplugView = (owner: MachineOwner, spec: { hotpluggable?: boolean }): MachineOwner =>
  spec.hotpluggable === false ? { ...owner, allowHotplug: false } : owner;

/** The VM's policy, as the SDK copied it into the hardware's inputs; "restart" for a machine given as bare text. */
const policyOf = (inputs: HardwareInputs): PowerCyclePolicy => inputs.powerCyclePolicy ?? "restart";

/**
 * In a preview the engine echoes an updated VM's inputs as its outputs, so its
 * machineKey reads as unknown; its key (`vm`) stays known unless the VM is
 * replaced. An unknown machine of the same, known VM is therefore the old one.
 */
export function withKnownMachine<T extends Row>(olds: Row, news: T): T {
  const sameVm = news.vm !== undefined && news.vm !== PREVIEW_UNKNOWN && str(news.vm) === str(olds.vm);
  return news.machine === PREVIEW_UNKNOWN && sameVm ? { ...news, machine: olds.machine } : news;
}

/**
 * A change of the owner inputs alone is no change for the engine, so the stock
 * `pulumi preview --expect-no-changes` passes after a `--target` run of the VM
 * (or a VM policy change): the engine still records the new inputs, and the
 * next real update or create of the row takes them.
 */
export function ownerInputsAloneAreNoChange(d: ResourceDiff): ResourceDiff {
  return d.replaces.length === 0 && d.updates.every((f) => OWNER_INPUTS.has(f)) ? { ...d, changes: false } : d;
}

/**
 * Drives, NICs and devices: rows keyed to a MACHINE; every change runs under
 * that machine's lock, and a running VM that cannot take the change live
 * follows its VM's power-cycle policy.
 */
/** What a hardware resource declares: its row mapping is derived from its shape (`mappingOf`). */
export type HardwareDeclaration<I extends HardwareInputs, O extends I> = Omit<
  HardwareSpec<I, O>,
  "toApiBody" | "fromApiRow" | "readFields"
> & {
  /** Columns read besides the shape's (a device's uuid, an output). */
  extraReadFields?: string;
};

export function hardwareBehaviour<I extends HardwareInputs, O extends I>(
  declared: HardwareDeclaration<I, O>,
): ResourceBehaviour<I, O> & { token: string; table: string; sdk: { onMachine: boolean; refuseDuplicateNames: "onMachine" } } {
  const mapped = mappingOf<I>(declared.shape);
  const spec: HardwareSpec<I, O> = {
    ...declared,
    toApiBody: (inputs, mode) => mapped.toApiBody(inputs, mode),
    fromApiRow: mapped.fromApiRow,
    readFields: declared.extraReadFields ? `${mapped.readFields},${declared.extraReadFields}` : mapped.readFields,
  };
  /** Outputs are the declared inputs plus the computed fields: a field no longer declared is no longer recorded. */
  const computedOf = (outs: Row) => Object.fromEntries(Object.entries(outs).filter(([k]) => !(k in spec.shape))) as Partial<O>;
  const declaredOf = (outs: Row) => Object.fromEntries(Object.entries(outs).filter(([k]) => k in spec.shape)) as I;
  const what = (inputs: I) => `${nounOf(spec.token)}${inputs.name ? ` '${inputs.name}'` : ""} of machine ${inputs.machine}`;
  const findByName = (api: Session, inputs: I) => async () =>
    inputs.name
      ? (
          await api.list(spec.table, {
            filter: `machine eq ${inputs.machine} and name eq ${quoteLiteral(inputs.name)}`,
            fields: spec.readFields,
            limit: 1,
          })
        )[0]
      : undefined;
  const marking = markingOf(spec);
  /**
   * A row of this machine carrying our marker, of this generation (a replaced predecessor differs in a replacing field).
   * The machine's rows are read with the other creates' look-ups of the table (a lab's: a few GETs), and told apart here.
   */
  const findOurs = (api: Session, inputs: I, marker: string) => async () => {
    const rows = await rowsWhere(api, spec.table, "machine", String(inputs.machine), spec.readFields);
    return rows.find(
      (row) => marking.marks(row, marker, inputs) && spec.diff(liveAsInputs(spec, row, inputs), inputs).replaces.length === 0,
    );
  };
  return {
    token: spec.token,
    table: spec.table,
    schema: spec.schema,
    sdk: { onMachine: true, refuseDuplicateNames: "onMachine" },
    // The listing finds the rows marked in their description: a device's marker is in its name.
    ...(spec.markedIn === "description" ? { refreshListing: spec.table } : {}),
    // A machine key that did not change since the last run was verified then.
    verify: async (api, inputs, unknown, olds) => [
      ...(unknown.has("machine") || str(olds?.machine) === str(inputs.machine) ? [] : await verifyMachineKey(api, String(inputs.machine))),
    ],
    diff: (_id, olds, news) => ownerInputsAloneAreNoChange(spec.diff(olds, withKnownMachine(olds, news))),

    async create(api, inputs) {
      const machine = String(inputs.machine);
      return api.withMachineLock(machine, async () => {
        if (inputs.adopt) {
          const row = await findAdoptable(what(inputs), inputs.adopt, {
            byKey: (key) => api.get(spec.table, key, spec.readFields),
            byName: findByName(api, inputs),
          });
          // fromApiRow includes `machine`: a key of another machine's row is refused here.
          assertAdoptable(what(inputs), inputs, spec.fromApiRow(withoutTag(row), inputs));
          return { id: str(row.$key), outs: { ...inputs, ...spec.computed?.(row, inputs) } as O };
        }
        const owner = await findMachineOwner(api, machine);
        if (!owner) throw new Error(`vplatform: machine: no VM has machine key '${machine}'`);
        let created: CreatedRow | undefined;
        const outs = () => ({ ...inputs, ...spec.computed?.(created?.response ?? {}, inputs) }) as O;
        const marker = markerOf(inputs);
        const t = resolveTimeouts(inputs.timeouts);
        let inserted: Inserted | undefined;
        try {
          await changeHardware(api, hotplugView(owner, spec), `adding ${what(inputs)}`, policyOf(inputs), t, async () => {
            const body = marking.mark(spec.toApiBody(inputs), marker, inputs);
            // A machine this process made holds no row of an earlier run: only a resend (after a failed POST) must look.
            const lookFirst = !madeByThisProcess(api, machine);
            created = inserted = await insertRow(
              api,
              { table: spec.table, body, what: what(inputs), findOurs: findOurs(api, inputs, marker), lookFirst },
              t.create * 1000,
            );
          });
          if (owner.status.running && hotplugView(owner, spec).allowHotplug)
            await waitUntilPluggedIn(api, spec.table, created!.$key, what(inputs), t);
        } catch (err) {
          if (!created) throw err;
          // The row exists but the VM could not be started again: record the row, never add it twice.
          throw new PartialCreateError(
            `vplatform: ${what(inputs)} was added (key ${created.$key}) but ${errorText(err)}`,
            created.$key,
            outs(),
          );
        }
        if (inserted?.recovered)
          assertRecoveredMatches(what(inputs), inputs, spec.fromApiRow(withoutTag(inserted.response ?? {}), inputs), inserted.$key, outs());
        return { id: str(created!.$key), outs: outs() };
      });
    },

    async read(api, id, olds) {
      const row = await api.get(spec.table, id, spec.readFields);
      if (!row) return undefined;
      const inputs = { ...declaredOf(olds), ...spec.fromApiRow(withoutTag(row), declaredFields(olds)) } as I;
      return { outs: { ...computedOf(olds), ...inputs, ...spec.computed?.(row, inputs) } as O, inputs };
    },

    async update(api, id, olds, news) {
      const body = apiUpdateBody(spec.shape, spec.diff(olds, news), news);
      if (Object.keys(body).length > 0) await api.withMachineLock(String(news.machine), () => api.update(spec.table, id, body));
      return { ...computedOf(olds), ...news } as O;
    },

    async delete(api, id, olds) {
      const machine = String(olds.machine);
      const t = resolveTimeouts(olds.timeouts);
      await api.withMachineLock(machine, async () => {
        const owner = await findMachineOwner(api, machine, { live: true });
        if (!owner) return api.remove(spec.table, id); // the VM went first
        const live = owner.status.running ? spec.removeLive?.(api, owner, id, olds, t) : undefined;
        if (live) return live;
        await changeHardware(api, hotplugView(owner, spec), `removing ${what(olds)}`, policyOf(olds), t, () => api.remove(spec.table, id));
      });
    },
  };
}

/** The live row as this declaration's inputs (only declared fields), tag removed. */
function liveAsInputs<I extends HardwareInputs, O extends I>(spec: HardwareSpec<I, O>, row: Row, inputs: I): Row {
  return { ...inputs, ...spec.fromApiRow(withoutTag(row), inputs) };
}

/** How a hardware row carries its marker (see HardwareSpec.markedIn). */
function markingOf(spec: { markedIn: "description" | "name" }) {
  if (spec.markedIn === "description") {
    return {
      mark: (body: Row, marker: string) => ({ ...body, description: taggedDescription(body.description, marker) }),
      marks: (row: Row, marker: string) => hasTag(row, marker),
    };
  }
  const deviceName = (marker: string, inputs: HardwareInputs) => inputs.name ?? `vplatform:${marker}`;
  return {
    mark: (body: Row, marker: string, inputs: HardwareInputs) => ({ ...body, name: deviceName(marker, inputs) }),
    marks: (row: Row, marker: string, inputs: HardwareInputs) => str(row.name) === deviceName(marker, inputs),
  };
}
