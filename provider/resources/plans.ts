import { Row } from "../reconcile/platform";
import { DiffDecision } from "./defineProvider";
import { changedFields } from "./fieldDiff";

/** Inputs that only steer the provider (never sent to the platform): changing them is a no-op update. */
const CONTROL_FIELDS = ["timeouts", "adopt", "powerCyclePolicy"];

interface DiffRules {
  /** Input fields compared (the schema's keys). */
  fields: readonly string[];
  /** Fields the platform cannot change in place. */
  replaceOn: readonly string[];
  /** Unique-name tables: the old object must go before the new one can take its name. */
  uniqueName: boolean;
}

/** A plain diff: changed fields are updates, `replaceOn` fields are replacements. */
export function planByRules(olds: Row, news: Row, rules: DiffRules): DiffDecision {
  const changed = changedFields(olds, news, rules.fields.filter((f) => f !== "adopt"));
  const replaces = changed.filter((f) => rules.replaceOn.includes(f));
  const notes = replaces.map((f) => `${f} changes from ${JSON.stringify(olds[f])} to ${JSON.stringify(news[f])}, which forces a replacement`);
  return {
    changes: changed,
    replaces,
    deleteBeforeReplace: rules.uniqueName && !changed.includes("name"),
    notes,
  };
}

/** Drives only grow: a smaller disksize can only be had by replacing the drive (its data is lost). */
export function planDriveSize(olds: Row, news: Row, decision: DiffDecision): DiffDecision {
  const before = Number(olds.disksize);
  const after = Number(news.disksize);
  if (!(after < before)) return decision;
  return {
    ...decision,
    replaces: [...new Set([...decision.replaces, "disksize"])],
    notes: [
      ...decision.notes,
      `!!! drive '${String(news.name)}' would SHRINK from ${before} to ${after} bytes; drives only grow, so it will be REPLACED and ALL DATA ON IT LOST !!!`,
    ],
  };
}

export const isControlOnly = (changes: string[]) => changes.every((f) => CONTROL_FIELDS.includes(f));
