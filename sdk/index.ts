export * from "./resources";
export * from "./lookups";
export { MachineKey, machineKey } from "./types";
