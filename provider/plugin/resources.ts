import type { ResourceOperations } from "../resources/defineProvider";
import { provider as device } from "../resources/device";
import { provider as drive } from "../resources/drive";
import { provider as nic } from "../resources/nic";
import { provider as virtualMachine } from "../resources/virtualMachine";
import { provider as vmPower } from "../resources/vmPower";
import { provider as vmSnapshot } from "../resources/vmSnapshot";
import { provider as vnet } from "../resources/vnet";

/** The operations the dynamic resources run, by resource name: the plugin's second door onto the same code. */
export const RESOURCE_OPERATIONS: ResourceOperations[] = [virtualMachine, drive, nic, device, vnet, vmSnapshot, vmPower].map((p) => p.operations);

/** `vplatform:index:VirtualMachine` → "VirtualMachine" (undefined for other packages or modules). */
export function resourceName(pkg: string, typeToken: string): string | undefined {
  const [p, mod, name] = typeToken.split(":");
  return p === pkg && mod === "index" ? name : undefined;
}

/** The type token of a URN: `urn:pulumi:stack::project::parent$vplatform:index:Vnet::name` → `vplatform:index:Vnet`. */
export function typeOfUrn(urn: string): string {
  const qualifiedType = urn.split("::")[2] ?? "";
  return qualifiedType.split("$").pop() ?? "";
}
