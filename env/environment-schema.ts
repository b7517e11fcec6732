import { z } from "zod";
import { whenValid } from "../provider/schemas/common";
import { DRIVE_RULE_FIELDS, MIN_DRIVE_SIZE, belowSmallestDrive, checkDrive } from "../provider/resources/drive/schema";
import {
  VIRTUAL_MACHINE_RULE_FIELDS,
  checkVirtualMachine,
  checkCloneSource,
  cloneFromShape,
} from "../provider/resources/virtualMachine/schema";
import { vnetInputsSchema } from "../provider/resources/vnet/schema";
import { webhookInputsSchema } from "../provider/resources/webhook/schema";
import { taskInputsSchema } from "../provider/resources/task/schema";
import { eventTriggerInputsSchema } from "../provider/resources/eventTrigger/schema";
import { scheduleInputsSchema } from "../provider/resources/schedule/schema";
import { userInputsSchema } from "../provider/resources/user/schema";
import { groupInputsSchema } from "../provider/resources/group/schema";
import { permissionInputsSchema } from "../provider/resources/permission/schema";
import { API_KEY_RULE_FIELDS, apiKeyShape, checkApiKey } from "../provider/resources/apiKey/schema";
import { cloneOrder, copiesOverlapping, copyVmName, labProblems, planCopies } from "../provider/plan/lab";
import { calendarProblems } from "../provider/plan/labCalendar";
import { labAccessProblems } from "../provider/plan/labGrants";
import { deviceFields, driveFields, labFields, nicFields, vmFields } from "../provider/resources/labInputs";
import { ENVIRONMENT_KINDS, LABS, LISTED_TOKENS, type ListedToken, type ListOf, logicalName } from "./environment-kinds";
import { nounOf } from "../provider/schemas/nouns";

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

/** Drive sizes in bytes, or with a unit for people: `20GiB`, `512 MiB`, `1.5TB`; never below the smallest drive. */
export const sizeSchema = z
  .union([
    z.number().int(),
    z
      .string()
      .regex(/^\s*\d+(\.\d+)?\s*(B|KB|MB|GB|TB|KiB|MiB|GiB|TiB)\s*$/i, "a size in bytes or with a unit such as 20GiB")
      .transform((s) => {
        const [, n, , unit] = /^\s*(\d+(\.\d+)?)\s*([a-z]+)\s*$/i.exec(s)!;
        return Math.round(Number(n) * SIZE_UNITS[unit.toUpperCase()]);
      }),
  ])
  .refine((bytes) => bytes >= MIN_DRIVE_SIZE, {
    error: (issue) => belowSmallestDrive(Number(issue.input), (gib) => `'${gib}GiB'`),
  });

// Hardware is nested under its VM, so `machine` (and the VM's key and policy) are implied (labInputs.ts).

const driveEntry = z
  .strictObject({
    ...driveFields,
    disksize: sizeSchema.optional().describe("Size in bytes, or with a unit: 20GiB, 512MiB, 1.5TB; at least 1 MiB (drives only grow)"),
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
const cloneEntry = z
  .strictObject({
    ...cloneFromShape,
    vm: z
      .string()
      .min(1)
      .optional()
      .describe("Name of the template VM (of this environment or existing), or its VM key (or give snapshot)"),
    snapshot: cloneFromShape.snapshot.describe(
      "Key of a VM snapshot to clone instead of a VM (a VmSnapshot's id): the term's image, pinned while the template VM is edited",
    ),
  })
  .superRefine(checkCloneSource);

/** A VM entry with its NICs as `nic` takes them: hardware nested, the template written by name. */
const vmEntryWith = <N extends z.ZodType>(nic: N) =>
  z
    .strictObject({
      ...vmFields,
      cloneFrom: cloneEntry.optional(),
      drives: z.array(driveEntry).default([]),
      nics: z.array(nic).default([]),
      devices: z.array(deviceEntry).default([]),
    })
    .superRefine(checkVirtualMachine, whenValid(...VIRTUAL_MACHINE_RULE_FIELDS));
const vmEntry = vmEntryWith(nicEntry);

// Automation refers by name (a task's webhook, a trigger's task and VM, a schedule's tasks) or by key; the
// provider's own rules (message variables, the schedule's window) still apply: safeExtend keeps them.
const reference = (what: string) => z.string().min(1).describe(`Name of a ${what} of this environment, or a ${what} key`);
const taskEntry = taskInputsSchema.safeExtend({
  webhook: reference("webhook").optional(),
  vm: z.string().min(1).optional().describe("Name of a VM (of this environment or existing) the task acts on, or its key"),
  user: z.string().min(1).optional().describe("Name of a user (of this environment or existing) the task acts on, or its key"),
});
const eventTriggerEntry = eventTriggerInputsSchema.safeExtend({
  task: reference("task"),
  object: z.string().min(1).optional().describe("For type vms: name of a VM (of this environment or existing) or its key; else a key"),
});
const scheduleEntry = scheduleInputsSchema.safeExtend({
  tasks: z.array(reference("task")).default([]).describe("Names of tasks of this environment, or task keys"),
});

// A group's members, a grant's grantee and row are written by name too (a row by name for vms, vnets, users, groups).
const names = (what: string) => z.array(z.string().min(1)).optional().describe(`${what}, or their keys; exactly these`);
const groupEntry = groupInputsSchema.safeExtend({
  users: names("Names of users of this environment or existing ones"),
  memberGroups: names("Names of groups of this environment listed before it"),
});
const permissionEntry = permissionInputsSchema.safeExtend({
  user: z.string().min(1).optional().describe("Name of a user of this environment or of an existing user, or a user key; or give group"),
  group: z.string().min(1).optional().describe("Name of a group of this environment, or a group key; or give user"),
  row: z
    .union([z.string().min(1), z.number().int().positive()])
    .transform(String)
    .optional()
    .describe("The one row: for vms, vnets, users and groups the name of one of this environment or an existing one; else a key"),
});

const KEY = /^\d+$/;
/** A key's user is written by name: a user of this environment, or the key of an existing user. */
const apiKeyEntry = z
  .strictObject({
    ...apiKeyShape,
    user: z
      .string()
      .min(1)
      .optional()
      .describe("Name of a user of this environment or of an existing user, or a user key; default: the caller"),
  })
  .superRefine(checkApiKey, whenValid(...API_KEY_RULE_FIELDS));

// A lab: the template of one copy (VMs as the file's, a NIC without vnet on the copy's vnet) stamped out `copies` times.
const labVmEntry = vmEntryWith(
  nicEntry.extend({
    vnet: nicEntry.shape.vnet
      .optional()
      .describe("Name of a vnet of this environment, or of an existing vnet, or a vnet key; default: the copy's vnet"),
  }),
);
const labEntry = z
  .strictObject({
    name: z
      .string()
      .regex(/^[A-Za-z0-9_.@-]{1,100}$/, "letters, digits and _ . @ - only (at most 100)")
      .describe("The lab's name: {lab} in the copies' names"),
    ...labFields(labVmEntry),
  })
  .superRefine((lab, ctx) => {
    for (const p of labProblems(lab)) ctx.addIssue({ code: "custom", path: [p.field], message: p.message });
    if (lab.apiKey && !lab.user)
      ctx.addIssue({ code: "custom", path: ["apiKey"], message: "a copy's key is its user's: declare user too" });
    for (const p of labAccessProblems(lab.user, lab.access)) ctx.addIssue({ code: "custom", path: p.field.split("."), message: p.message });
    const names = lab.vms.map((v) => v.name);
    lab.vms.forEach((vm, i) => {
      if (names.indexOf(vm.name) !== i)
        ctx.addIssue({ code: "custom", path: ["vms", i, "name"], message: `VM name '${vm.name}' is declared twice in lab '${lab.name}'` });
      if (vm.cloneFrom?.vm === vm.name)
        ctx.addIssue({ code: "custom", path: ["vms", i, "cloneFrom", "vm"], message: "a VM cannot be cloned from itself" });
    });
    if (cloneOrder(lab.vms) === undefined) ctx.addIssue({ code: "custom", path: ["vms"], message: "cloneFrom references form a cycle" });
    // The file's own rules; an end in the past is judged by the program at preview (a destroy after the term still loads the file).
    if (lab.calendar) {
      for (const p of calendarProblems(lab.calendar))
        ctx.addIssue({
          code: "custom",
          path: p.field
            .split(/[.[\]]+/)
            .filter(Boolean)
            .map((s) => (/^\d+$/.test(s) ? Number(s) : s)),
          message: p.message,
        });
      if (lab.calendar.sessions?.length && lab.vms.some((v) => v.powerState !== undefined))
        ctx.addIssue({
          code: "custom",
          path: ["vms"],
          message: "powerState: the calendar powers the copies on and off: leave powerState out",
        });
    }
  });

/** The entry of each list: the provider's own input schema, references written by name. */
const ENTRIES = {
  Vnet: vnetInputsSchema,
  VirtualMachine: vmEntry,
  Webhook: webhookInputsSchema,
  Task: taskEntry,
  EventTrigger: eventTriggerEntry,
  Schedule: scheduleEntry,
  User: userInputsSchema,
  ApiKey: apiKeyEntry,
  Group: groupEntry,
  Permission: permissionEntry,
} satisfies { [T in ListedToken]: z.ZodType };

type Lists = { [T in ListedToken as ListOf<T>]: z.ZodDefault<z.ZodArray<(typeof ENTRIES)[T]>> };
/** Every list of ENVIRONMENT_KINDS, each empty unless given. */
const lists = Object.fromEntries(LISTED_TOKENS.map((t) => [ENVIRONMENT_KINDS[t].list, z.array(ENTRIES[t]).default([])])) as Lists;

export const environmentSchema = z.strictObject({ ...lists, [LABS.list]: z.array(labEntry).default([]) }).superRefine((env, ctx) => {
  for (const token of LISTED_TOKENS) for (const issue of declaredTwice(token, env[ENVIRONMENT_KINDS[token].list])) ctx.addIssue(issue);
  for (const issue of automationProblems(env)) ctx.addIssue({ code: "custom", ...issue });
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
  for (const issue of labClashes(env)) ctx.addIssue({ code: "custom", ...issue });
});

/**
 * What a file's labs must not collide with: another lab of the same name, a copy's network overlapping a vnet of
 * the file or another lab's copy, and a copy's vnet, VM or user named as an entry of the file.
 */
function labClashes(env: Pick<z.output<typeof environmentSchema>, "labs" | "vnets" | "vms" | "users">) {
  const issues: { path: (string | number)[]; message: string }[] = [];
  const planned = env.labs.map((lab) => (labProblems(lab).length === 0 ? planCopies(lab) : []));
  env.labs.forEach((lab, i) => {
    const at = (...path: (string | number)[]) => [LABS.list, i, ...path];
    if (env.labs.findIndex((l) => l.name === lab.name) !== i)
      issues.push({ path: at("name"), message: `lab name '${lab.name}' is declared twice` });
    const copies = planned[i];
    const overlapping = [
      ...env.vnets.flatMap((v) => (v.network ? [{ what: `the vnet '${v.name}' of this file`, network: v.network }] : [])),
      ...planned
        .slice(0, i)
        .flatMap((other, j) => other.map((c) => ({ what: `copy ${c.name} of lab '${env.labs[j].name}'`, network: c.network }))),
    ];
    for (const o of overlapping) {
      const [first] = copiesOverlapping(copies, o.network);
      if (first)
        issues.push({
          path: at("pool"),
          message: `copy ${first.name}'s network ${first.network} overlaps ${o.what} (${o.network}): choose a pool clear of it`,
        });
    }
    const taken = (names: string[], noun: string, list: string, name: (copy: string) => string[]) => {
      for (const c of copies)
        for (const n of name(c.name))
          if (names.includes(n))
            issues.push({ path: at("name"), message: `copy ${c.name}'s ${noun} '${n}' is also declared under ${list}: rename one` });
    };
    taken(
      env.vnets.map((v) => v.name),
      "vnet",
      "vnets",
      (copy) => [copy],
    );
    taken(
      env.vms.map((v) => v.name),
      "VM",
      "vms",
      (copy) => lab.vms.map((v) => copyVmName(copy, v.name)),
    );
    if (lab.user)
      taken(
        env.users.map((u) => u.name),
        "user",
        "users",
        (copy) => [copy],
      );
  });
  return issues;
}

/** Entries of one list with the same logical name (a name, or an event trigger's identity): reported at the later one. */
function declaredTwice(token: ListedToken, entries: object[]): { code: "custom"; path: (string | number)[]; message: string }[] {
  const kind: { list: string; identity?: unknown } = ENVIRONMENT_KINDS[token];
  const noun = nounOf(token);
  const names = entries.map((entry) => logicalName(token, entry));
  const at = (i: number) => (kind.identity ? [kind.list, i] : [kind.list, i, "name"]);
  const what = kind.identity ? noun : `${noun} name`;
  return names.flatMap((name, i) =>
    names.indexOf(name) === i ? [] : [{ code: "custom" as const, path: at(i), message: `${what} '${name}' is declared twice` }],
  );
}

type AutomationEntries = Pick<
  z.output<typeof environmentSchema>,
  "users" | "apiKeys" | "webhooks" | "tasks" | "eventTriggers" | "schedules"
>;

/** References to a webhook or task that is neither declared here nor a key. */
function automationProblems(env: AutomationEntries): { path: (string | number)[]; message: string }[] {
  const known = (names: string[], noun: string) => (ref: string, path: (string | number)[]) =>
    KEY.test(ref) || names.includes(ref)
      ? []
      : [{ path, message: `${noun} '${ref}' is not declared under ${noun}s: declare it there, or give an existing ${noun}'s key` }];
  const webhook = known(
    env.webhooks.map((w) => w.name),
    "webhook",
  );
  const task = known(
    env.tasks.map((t) => t.name),
    "task",
  );
  return [
    ...env.tasks.flatMap((t, i) => (t.webhook === undefined ? [] : webhook(t.webhook, ["tasks", i, "webhook"]))),
    ...env.eventTriggers.flatMap((t, i) => task(t.task, ["eventTriggers", i, "task"])),
    ...env.schedules.flatMap((s, i) => s.tasks.flatMap((ref, j) => task(ref, ["schedules", i, "tasks", j]))),
  ];
}

// Its output type is written out as plain TypeScript in environmentTypes.generated.ts (scripts/gen-sdk-types.ts).
