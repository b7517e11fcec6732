/** Owner references: a row names another by "<table>/<key>" (`owner` "vms/42", a tag member "vnets/3"). */
import { ApiError, validationError } from "../model/errors";
import type { EmulatorContext } from "../model/types";

/** The reference to a row as another row names it: "vms/42". */
export function ownerReference(table: string, key: unknown): string {
  return `${table}/${String(key)}`;
}

/** Parses an owner reference "vms/42" into its table and key. */
export function parseOwner(value: unknown): { table: string; key: string } | undefined {
  if (typeof value !== "string") return undefined;
  const match = /^([a-z_]+)\/([A-Za-z0-9]+)$/.exec(value);
  return match ? { table: match[1], key: match[2] } : undefined;
}

/** Validates an owner / member reference "<table>/<key>" and that the row exists (404). */
export function checkOwnerRef(ctx: EmulatorContext, field: string, value: unknown, tables: string[]): void {
  const owner = parseOwner(value);
  if (!owner || !tables.includes(owner.table)) throw validationError(field, `must be ${tables.map((t) => `${t}/<key>`).join(" or ")}`);
  if (!ctx.get(owner.table, owner.key)) throw new ApiError(404, `${field} '${String(value)}' not found`);
}
