/**
 * What one of a resource is called in messages ("API key", "event trigger"): the words of its token in lower case,
 * but where the platform's own people say otherwise. Written here once, and plain (no zod): the declarations
 * (framework/defineResource.ts, the hardware rows, the VM's and vnet's name checks) and the environment files
 * (env/environment-kinds.ts, whose published declarations import no zod) read it. A new resource with a regular
 * name writes nothing here.
 */
const SAID_OTHERWISE: Readonly<Record<string, string>> = { VirtualMachine: "VM", Nic: "NIC", ApiKey: "API key" };

/** The noun of a resource's token: an EventTrigger is an "event trigger", a VirtualMachine a "VM". */
export const nounOf = (token: string): string => SAID_OTHERWISE[token] ?? token.replace(/(?<=[a-z])(?=[A-Z])/g, " ").toLowerCase();
