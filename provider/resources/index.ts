import type { Resource } from "./framework/defineResource";
import { apiKey } from "./apiKey/resource";
import { device } from "./device/resource";
import { drive } from "./drive/resource";
import { eventTrigger } from "./eventTrigger/resource";
import { group } from "./group/resource";
import { nic } from "./nic/resource";
import { permission } from "./permission/resource";
import { schedule } from "./schedule/resource";
import { task } from "./task/resource";
import { user } from "./user/resource";
import { virtualMachine } from "./virtualMachine/resource";
import { vmPower } from "./vmPower/resource";
import { vmSnapshot } from "./vmSnapshot/resource";
import { vnet } from "./vnet/resource";
import { webhook } from "./webhook/resource";

/**
 * The one list of resources, keyed by each declaration's token (declaredOnce.test.ts checks the keys match, and
 * that every resource folder is listed). The plugin's resource map, the dynamic entry modules, schema.json, the
 * docs, the SDK types and look-ups, the environment loader, the policy's types and the test harness are derived
 * from it (in this order).
 */
export const RESOURCES = {
  VirtualMachine: virtualMachine,
  Drive: drive,
  Nic: nic,
  Device: device,
  Vnet: vnet,
  VmSnapshot: vmSnapshot,
  VmPower: vmPower,
  Webhook: webhook,
  Task: task,
  EventTrigger: eventTrigger,
  Schedule: schedule,
  User: user,
  ApiKey: apiKey,
  Group: group,
  Permission: permission,
} as const satisfies Record<string, Resource>;

/** The token of a listed resource: anything else does not compile where a token is asked for. */
export type ResourceToken = keyof typeof RESOURCES;
/** Every resource the provider serves, one per token. */
export type ResourceRegistry = { readonly [T in ResourceToken]: Resource };

export const RESOURCE_LIST: readonly Resource[] = Object.values(RESOURCES);

export type { Resource, ResourceSchema } from "./framework/defineResource";
