import * as pulumi from "@pulumi/pulumi";
import * as vp from "../sdk";
import { cloneOrder, eventTriggerIdentity } from "./environment-schema";
import type { Environment } from "./environmentTypes.generated";
import { hardwareName, powerName } from "./logical-names";

type VmEntry = Environment["vms"][number];
type AutomationLists = "users" | "apiKeys" | "webhooks" | "tasks" | "eventTriggers" | "schedules";
/** An environment as validated; the automation lists may be left out (as code written before they existed does). */
export type BuildableEnvironment = Omit<Environment, AutomationLists> & Partial<Pick<Environment, AutomationLists>>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const KEY = /^\d+$/;

export interface BuiltEnvironment {
  vnets: Record<string, pulumi.Output<string>>;
  users: Record<string, pulumi.Output<string>>;
  /** Each key's secret is a Pulumi secret output: a stack reference can use it; nothing prints it. */
  apiKeys: Record<string, { id: pulumi.Output<string>; secret: pulumi.Output<string> }>;
  vms: Record<string, { id: pulumi.Output<string>; machineKey: pulumi.Output<string>; status: pulumi.Output<string> }>;
}

/**
 * Declares the resources of an environment. Names in the file resolve to the
 * resources declared here first, then to existing rows (looked up by name);
 * plain keys and UUIDs are used as they are.
 */
export function buildEnvironment(env: BuildableEnvironment): BuiltEnvironment {
  const vnets = new Map(env.vnets.map((v) => [v.name, new vp.Vnet(v.name, v)]));
  const vms = new Map<string, DeclaredVm>();
  const vnetKey = (ref: string) => vnets.get(ref)?.id ?? (KEY.test(ref) ? pulumi.output(ref) : vp.getVnetOutput({ name: ref }).id);
  const vmKey = (ref: string) => vms.get(ref)?.vm.id ?? (KEY.test(ref) ? pulumi.output(ref) : vp.getVirtualMachineOutput({ name: ref }).id);
  const resourceGroup = (ref: string) => (UUID.test(ref) ? pulumi.output(ref) : vp.getResourceGroupOutput({ name: ref }).uuid);

  for (const entry of cloneOrder(env.vms) ?? env.vms) {
    // Hardware goes with its VM (deletedWith), so the VM itself must be gone before the vnets of its NICs.
    const vnetsOfNics = entry.nics.flatMap((n) => vnets.get(n.vnet) ?? []);
    vms.set(entry.name, declareVm(entry, { vmKey, vnetKey, resourceGroup }, { dependsOn: vnetsOfNics }));
  }
  declareAutomation(env, vmKey);
  const users = new Map((env.users ?? []).map((u) => [u.name, new vp.User(u.name, u)]));
  const userKey = (ref: string) => users.get(ref)?.id ?? (KEY.test(ref) ? pulumi.output(ref) : vp.getUserOutput({ name: ref }).id);
  const declaredKeys = env.apiKeys ?? [];
  const apiKeys = declaredKeys.map((k) => new vp.ApiKey(k.name, { ...k, user: k.user === undefined ? undefined : userKey(k.user) }));
  return {
    vnets: Object.fromEntries([...vnets].map(([name, v]) => [name, v.id])),
    users: Object.fromEntries([...users].map(([name, u]) => [name, u.id])),
    apiKeys: Object.fromEntries(declaredKeys.map((k, i) => [k.name, { id: apiKeys[i].id, secret: apiKeys[i].secret }])),
    vms: Object.fromEntries([...vms].map(([name, { vm, status }]) => [name, { id: vm.id, machineKey: vm.machineKey, status }])),
  };
}

interface DeclaredVm {
  vm: vp.VirtualMachine;
  /** From the VM's power resource when it has one: the VM's own status predates its start. */
  status: pulumi.Output<string>;
}

interface Resolvers {
  vmKey(ref: string): pulumi.Output<string>;
  vnetKey(ref: string): pulumi.Output<string>;
  resourceGroup(ref: string): pulumi.Output<string>;
}

/**
 * A VM, its hardware, then its power: the VM is started once everything is
 * attached (passthrough devices need it stopped, so starting it first would
 * mean a start, a stop and a start again).
 */
function declareVm(entry: VmEntry, resolve: Resolvers, vmOpts: pulumi.CustomResourceOptions): DeclaredVm {
  const { drives, nics, devices, cloneFrom, powerState, ...vmArgs } = entry;
  const vm = new vp.VirtualMachine(
    entry.name,
    { ...vmArgs, ...(cloneFrom ? { cloneFrom: { ...cloneFrom, vm: resolve.vmKey(cloneFrom.vm) } } : {}) },
    vmOpts,
  );
  const opts = { parent: vm };
  const hardware: pulumi.Resource[] = [
    ...drives.map((d, i) => new vp.Drive(hardwareName(entry.name, "drive", d, i), { ...d, machine: vm.machineKey }, opts)),
    ...nics.map(
      (n, i) => new vp.Nic(hardwareName(entry.name, "nic", n, i), { ...n, machine: vm.machineKey, vnet: resolve.vnetKey(n.vnet) }, opts),
    ),
    ...devices.map(
      (d, i) =>
        new vp.Device(
          hardwareName(entry.name, "device", d, i),
          { ...d, machine: vm.machineKey, resourceGroup: resolve.resourceGroup(d.resourceGroup) },
          opts,
        ),
    ),
  ];
  if (!powerState) return { vm, status: vm.status };
  const power = new vp.VmPower(
    powerName(entry.name),
    { vm: vm.id, state: powerState, timeouts: entry.timeouts },
    { parent: vm, dependsOn: hardware },
  );
  return { vm, status: power.status };
}

/**
 * Webhooks, the tasks that send through them, the event triggers and schedules that run the tasks: a
 * reference is the name of an entry of the file, else a key (a trigger's VM may also be an existing VM's name).
 */
function declareAutomation(env: BuildableEnvironment, vmKey: (ref: string) => pulumi.Output<string>): void {
  const keyOf = (declared: Map<string, { id: pulumi.Output<string> }>) => (ref: string) => declared.get(ref)?.id ?? pulumi.output(ref);
  const webhookKey = keyOf(new Map((env.webhooks ?? []).map((w) => [w.name, new vp.Webhook(w.name, w)])));
  const taskKey = keyOf(new Map((env.tasks ?? []).map((t) => [t.name, new vp.Task(t.name, { ...t, webhook: webhookKey(t.webhook) })])));
  for (const trigger of env.eventTriggers ?? []) {
    const object = trigger.object === undefined ? undefined : trigger.type === "vms" ? vmKey(trigger.object) : trigger.object;
    new vp.EventTrigger(eventTriggerIdentity(trigger), { ...trigger, task: taskKey(trigger.task), object });
  }
  for (const schedule of env.schedules ?? []) new vp.Schedule(schedule.name, { ...schedule, tasks: schedule.tasks.map(taskKey) });
}
