/**
 * The request-saving mechanisms, each of which can be switched back to the
 * old per-resource behaviour with VPLATFORM_BASELINE (a comma list of
 * `waits`, `reads`, `verify`, `deletedWith`, or `all`), so `npm run bench` measures what each
 * one buys in the same run. Users leave it unset.
 */
export type Economy = "waits" | "reads" | "verify" | "deletedWith";

export function economyOn(what: Economy, env: NodeJS.ProcessEnv = process.env): boolean {
  const baseline = (env.VPLATFORM_BASELINE ?? "").split(",").map((s) => s.trim());
  return !baseline.includes(what) && !baseline.includes("all");
}
