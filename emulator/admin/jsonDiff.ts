/**
 * Where two JSON answers differ, as paths (`[3].status: "running" ≠ "stopped"`), for the replay report.
 * A recorded "<redacted>" matches anything (the secret was never written); timing fields (timingFields.ts)
 * and names in `ignore` are skipped at any depth.
 */
import { REDACTED } from "./redact";
import { isTimingField } from "./timingFields";

const show = (value: unknown) => (value === undefined ? "absent" : JSON.stringify(value));

export function jsonDifferences(recorded: unknown, replayed: unknown, ignore: ReadonlySet<string>, path = ""): string[] {
  if (recorded === REDACTED) return [];
  if (Array.isArray(recorded) && Array.isArray(replayed)) {
    const length = Math.max(recorded.length, replayed.length);
    return Array.from({ length }, (_, i) => jsonDifferences(recorded[i], replayed[i], ignore, `${path}[${i}]`)).flat();
  }
  const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);
  if (isObject(recorded) && isObject(replayed)) {
    const names = [...new Set([...Object.keys(recorded), ...Object.keys(replayed)])].filter(
      (name) => !isTimingField(name) && !ignore.has(name),
    );
    return names.flatMap((name) => jsonDifferences(recorded[name], replayed[name], ignore, path ? `${path}.${name}` : name));
  }
  return JSON.stringify(recorded) === JSON.stringify(replayed) ? [] : [`${path || "(body)"}: ${show(recorded)} ≠ ${show(replayed)}`];
}
