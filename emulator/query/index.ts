export * from "./errors";
export * from "./filter";
export * from "./fields";
export * from "./sort";
export * from "./cache";
export { compareValues } from "./values";
