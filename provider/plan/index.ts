// Pure planning: normalization, per-resource diffs and the VM update steps.
export * from "./normalize";
export * from "./diff";
export * from "./vmUpdate";
