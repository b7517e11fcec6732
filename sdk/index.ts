export * from "./resources";
export * from "./vmPower";
export * from "./lookups";
export { MachineKey, machineKey } from "./types";
