import { Row } from "../reconcile/platform";

/**
 * Adoption takes over an existing object only when it is what the program
 * declares; otherwise the error lists every differing field.
 */
export function assertAdoptable(what: string, declared: Row, live: Row): void {
  const differing = Object.keys(live).filter(
    (k) => declared[k] !== undefined && JSON.stringify(live[k]) !== JSON.stringify(declared[k]),
  );
  if (differing.length === 0) return;
  const list = differing.map((k) => `${k} (declared ${JSON.stringify(declared[k])}, actual ${JSON.stringify(live[k])})`);
  throw new Error(
    `vplatform: cannot adopt ${what}: it exists but differs from the declaration in ${list.join(", ")}. ` +
      `Change the declaration to match, or fix the object on the platform.`,
  );
}
