export * from "./resources";
export * from "./lookups";
export * from "./enums.generated";
export { MachineKey, machineKey } from "./types";
export { Provider, type ProviderArgs } from "./provider";
export { Lab, type LabArgs, type LabVmArgs, type LabCopyOutputs, type LabCopyVm } from "./lab";
