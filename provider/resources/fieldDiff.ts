import { Row } from "../reconcile/platform";
import { UNKNOWN } from "./checkInputs";

/** Fields (of `keys`) whose value differs between old outputs and new inputs; unknown news count as changed. */
export function changedFields(olds: Row, news: Row, keys: readonly string[]): string[] {
  return keys.filter((k) => news[k] === UNKNOWN || JSON.stringify(olds[k] ?? null) !== JSON.stringify(news[k] ?? null));
}

/** Only the fields of an API body that differ from the old body (what a PUT sends). */
export function changedBody(oldBody: Row, newBody: Row): Row {
  return Object.fromEntries(Object.entries(newBody).filter(([k, v]) => JSON.stringify(oldBody[k] ?? null) !== JSON.stringify(v ?? null)));
}
