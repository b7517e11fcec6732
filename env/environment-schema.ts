import { z } from "zod";
import { whenValid } from "../provider/schemas/common";
import { deviceShape } from "../provider/schemas/device";
import { DRIVE_RULE_FIELDS, checkDrive, driveShape } from "../provider/schemas/drive";
import { withoutMachineOwner } from "../provider/schemas/hardware";
import { nicShape } from "../provider/schemas/nic";
import { VIRTUAL_MACHINE_RULE_FIELDS, checkVirtualMachine, cloneFromShape, virtualMachineShape } from "../provider/schemas/virtualMachine";
import { vnetInputsSchema } from "../provider/schemas/vnet";
import { userInputsSchema } from "../provider/schemas/user";
import { API_KEY_RULE_FIELDS, apiKeyShape, checkApiKey } from "../provider/schemas/apiKey";

/**
 * An environment definition: the YAML a GitOps repository holds as the desired
 * state. Each entry is the provider's own input schema (one source of truth),
 * with hardware nested under its VM and references written by name.
 */

const SIZE_UNITS: Record<string, number> = {
  B: 1,
  KB: 1e3,
  MB: 1e6,
  GB: 1e9,
  TB: 1e12,
  KIB: 2 ** 10,
  MIB: 2 ** 20,
  GIB: 2 ** 30,
  TIB: 2 ** 40,
};

/** The fields written with sizeSchema: the plan shows their bytes with units too (`20GB` is not `20GiB`). */
export const SIZE_FIELDS: ReadonlySet<string> = new Set(["disksize"]);

/** Drive sizes in bytes, or with a unit for people: `20GiB`, `512 MiB`, `1.5TB`. */
export const sizeSchema = z.union([
  z.number().int().positive(),
  z
    .string()
    .regex(/^\s*\d+(\.\d+)?\s*(B|KB|MB|GB|TB|KiB|MiB|GiB|TiB)\s*$/i, "a size in bytes or with a unit such as 20GiB")
    .transform((s) => {
      const [, n, , unit] = /^\s*(\d+(\.\d+)?)\s*([a-z]+)\s*$/i.exec(s)!;
      return Math.round(Number(n) * SIZE_UNITS[unit.toUpperCase()]);
    }),
]);

// Hardware is nested under its VM, so `machine` (and the VM's key and policy) are implied.
const driveFields = withoutMachineOwner(driveShape);
const nicFields = withoutMachineOwner(nicShape);
const deviceFields = withoutMachineOwner(deviceShape);
const { cloneFrom: _cf, ...vmFields } = virtualMachineShape;

const driveEntry = z
  .strictObject({
    ...driveFields,
    disksize: sizeSchema.optional().describe("Size in bytes, or with a unit: 20GiB, 512MiB, 1.5TB (drives only grow)"),
  })
  .superRefine(checkDrive, whenValid(...DRIVE_RULE_FIELDS));
const nicEntry = z.strictObject({
  ...nicFields,
  vnet: z.string().min(1).describe("Name of a vnet of this environment, or of an existing vnet, or a vnet key"),
});
const deviceEntry = z.strictObject({
  ...deviceFields,
  resourceGroup: z.string().min(1).describe("UUID or name of the hardware resource group (e.g. a GPU)"),
});
const cloneEntry = z.strictObject({
  ...cloneFromShape,
  vm: z.string().min(1).describe("Name of the template VM (of this environment or existing), or its VM key"),
});

const vmEntry = z
  .strictObject({
    ...vmFields,
    cloneFrom: cloneEntry.optional(),
    drives: z.array(driveEntry).default([]),
    nics: z.array(nicEntry).default([]),
    devices: z.array(deviceEntry).default([]),
  })
  .superRefine(checkVirtualMachine, whenValid(...VIRTUAL_MACHINE_RULE_FIELDS));

/** A key's user is written by name: a user of this environment, or the key of an existing user. */
const apiKeyEntry = z
  .strictObject({
    ...apiKeyShape,
    user: z.string().min(1).optional().describe("Name of a user of this environment, or the key of an existing user; default: the caller"),
  })
  .superRefine(checkApiKey, whenValid(...API_KEY_RULE_FIELDS));

export const environmentSchema = z
  .strictObject({
    vnets: z.array(vnetInputsSchema).default([]),
    vms: z.array(vmEntry).default([]),
    users: z.array(userInputsSchema).default([]),
    apiKeys: z.array(apiKeyEntry).default([]),
  })
  .superRefine((env, ctx) => {
    const duplicate = (kind: keyof typeof KINDS, names: string[]) =>
      names.forEach((name, i) => {
        if (names.indexOf(name) !== i)
          ctx.addIssue({ code: "custom", path: [kind, i, "name"], message: `${KINDS[kind]} name '${name}' is declared twice` });
      });
    for (const kind of Object.keys(KINDS) as (keyof typeof KINDS)[]) {
      duplicate(
        kind,
        env[kind].map((x) => x.name),
      );
    }
    env.apiKeys.forEach((key, i) => {
      if (key.user === undefined || /^\d+$/.test(key.user) || env.users.some((u) => u.name === key.user)) return;
      ctx.addIssue({
        code: "custom",
        path: ["apiKeys", i, "user"],
        message: `user '${key.user}' is not a user of this environment: declare it under users, or give an existing user's key`,
      });
    });
    env.vms.forEach((vm, i) => {
      const names = (list: { name?: string }[], kind: string) =>
        list.forEach((x, j) => {
          if (x.name && list.findIndex((y) => y.name === x.name) !== j)
            ctx.addIssue({
              code: "custom",
              path: ["vms", i, kind, j, "name"],
              message: `${kind} name '${x.name}' is used twice on VM '${vm.name}'`,
            });
        });
      names(vm.drives, "drives");
      names(vm.nics, "nics");
      if (vm.cloneFrom?.vm === vm.name)
        ctx.addIssue({ code: "custom", path: ["vms", i, "cloneFrom", "vm"], message: "a VM cannot be cloned from itself" });
    });
    const order = cloneOrder(env.vms);
    if (order === undefined) ctx.addIssue({ code: "custom", path: ["vms"], message: "cloneFrom references form a cycle" });
  });

/** What each list declares, in messages. */
const KINDS = { vnets: "vnet", vms: "VM", users: "user", apiKeys: "API key" } as const;

// Its output type is written out as plain TypeScript in environmentTypes.generated.ts (scripts/gen-sdk-types.ts).

/** VMs ordered so that every template of this environment comes before its clones; undefined on a cycle. */
export function cloneOrder<T extends { name: string; cloneFrom?: { vm: string } }>(vms: T[]): T[] | undefined {
  const byName = new Map(vms.map((v) => [v.name, v]));
  const done = new Set<string>();
  const visiting = new Set<string>();
  const out: T[] = [];
  const visit = (vm: T): boolean => {
    if (done.has(vm.name)) return true;
    if (visiting.has(vm.name)) return false;
    visiting.add(vm.name);
    const template = vm.cloneFrom && byName.get(vm.cloneFrom.vm);
    if (template && !visit(template)) return false;
    visiting.delete(vm.name);
    done.add(vm.name);
    out.push(vm);
    return true;
  };
  return vms.every(visit) ? out : undefined;
}
