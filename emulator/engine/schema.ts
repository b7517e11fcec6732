/** `GET /v4/<table>/$table`: the table schema, generated from its definition. */
import type { TableDef } from "../model/types";

export function tableSchema(def: TableDef): Record<string, unknown> {
  const fields: Record<string, unknown> = {
    $key: { type: def.keyType === "int" ? "uint32" : "string", readonly: true, description: "row key" },
  };
  for (const [name, f] of Object.entries(def.fields)) {
    const list = f.enum && !("test" in f.enum && typeof f.enum.test === "function") ? f.enum : undefined;
    fields[name] = {
      type: f.type,
      ...(f.description ? { description: f.description } : {}),
      ...(f.required ? { required: true } : {}),
      ...(f.default !== undefined && typeof f.default !== "function" ? { default: f.default } : {}),
      ...(list ? { list } : {}),
      ...(f.enum && !list ? { valid: (f.enum as { options: string }).options } : {}),
      ...(f.min !== undefined ? { min: f.min } : {}),
      ...(f.max !== undefined ? { max: f.max } : {}),
      ...(f.maxLength !== undefined ? { maxlength: f.maxLength } : {}),
      ...(f.pattern ? { pattern: f.pattern.source } : {}),
      ...(f.readOnly ? { readonly: true } : {}),
      ...(f.createOnly ? { createonly: true } : {}),
      ...(f.hidden ? { hidden: true } : {}),
      ...(f.ref ? { table: f.ref } : {}),
      ...(f.via ? { via: f.via } : {}),
      ...(f.summary ? { summary: true } : {}),
    };
  }
  return {
    name: def.name,
    description: def.description,
    key: "$key",
    owner: def.owner ?? null,
    parent: def.parent ?? null,
    operations: def.operations ?? ["list", "get", "create", "update", "delete"],
    ...(def.actions ? { actions: Object.fromEntries(Object.entries(def.actions.actions).map(([n, a]) => [n, a.description])) } : {}),
    fields,
  };
}
