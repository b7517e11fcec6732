import * as pulumi from "@pulumi/pulumi";
import { getTableRows } from "../sdk/lookups";
import { type BuiltEnvironment, buildEnvironment } from "./build-environment";
import { EnvironmentError } from "./environment-error";
import { existingReferences, missingReferences } from "./existing-references";
import type { LoadedEnvironment } from "./load-environment";

/** The names of the rows of each table, one read-only list per table. */
async function namesOf(tables: string[]): Promise<Map<string, Set<string>>> {
  const lists = await Promise.all(tables.map((table) => getTableRows({ table, fields: ["name"], limit: 0 })));
  return new Map(tables.map((table, i) => [table, new Set(lists[i].rows.map((row) => String(row.name)))]));
}

/**
 * The program of an environment file (`vplatform env`'s and env/main.ts's): its resources, once every row it
 * names and does not declare is known to be on the platform. A missing one is a file error at the line that
 * names it (a RunError: the engine shows the message, not a stack trace), before any resource is declared.
 */
export async function environmentProgram({ env, locate }: LoadedEnvironment): Promise<BuiltEnvironment> {
  const refs = existingReferences(env);
  if (refs.length > 0) {
    const missing = missingReferences(refs, await namesOf([...new Set(refs.map((r) => r.table))]), locate);
    if (missing.length > 0) throw new pulumi.RunError(new EnvironmentError(missing).message);
  }
  return buildEnvironment(env);
}
