// The dynamic-provider entry of this resource: the module IS the provider (see sdk/providerShim.ts).
import { provider } from "../resources/vmSnapshot";
export = provider;
