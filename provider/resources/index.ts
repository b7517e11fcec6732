import type { Resource, ResourceToken } from "./defineResource";
import { apiKey } from "./apiKey";
import { device } from "./device";
import { drive } from "./drive";
import { eventTrigger } from "./eventTrigger";
import { nic } from "./nic";
import { schedule } from "./schedule";
import { task } from "./task";
import { user } from "./user";
import { virtualMachine } from "./virtualMachine";
import { vmPower } from "./vmPower";
import { vmSnapshot } from "./vmSnapshot";
import { vnet } from "./vnet";
import { webhook } from "./webhook";

/** Every resource the provider serves, one per declared token: a declaration left out does not compile. */
export type ResourceRegistry = { readonly [T in ResourceToken]: Resource };

/**
 * The one list of resources. The plugin's resource map, the dynamic entry
 * modules, schema.json, the docs, the SDK types, the environment loader and the
 * test harness are derived from it (in this order).
 */
export const RESOURCES: ResourceRegistry = {
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
};

export const RESOURCE_LIST: readonly Resource[] = Object.values(RESOURCES);

export type { Resource, ResourceSchema, ResourceToken } from "./defineResource";
