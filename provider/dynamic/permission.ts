// Generated from the resource list (provider/resources/index.ts) by scripts/gen-schema.ts: do not edit.
// The dynamic-provider entry of this resource: the module IS the provider (see sdk/providerShim.ts).
import { RESOURCES } from "../resources";
export = RESOURCES.Permission.dynamic;
