// The resource classes users import, generated from the resource list (provider/resources/index.ts), and their types.
export * from "./resources.generated";
export type * from "./schemaTypes.generated";
