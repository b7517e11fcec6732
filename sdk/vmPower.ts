// VmPower's own module, for code that imports it from here: the class is generated with the others.
export { VmPower, type VmPowerArgs } from "./resources.generated";
