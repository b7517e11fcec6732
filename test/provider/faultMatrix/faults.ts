/** The faults of the fault matrix (in-process and under the engine) and how the matrix prints. */
export type Op = "create" | "update" | "delete";

/** Each fault as the emulator's fault switch takes it, for a client whose request timeout is `timeoutMs`. */
export function faultSpecs(timeoutMs: number): Record<string, () => Record<string, unknown>> {
  return {
    "500": () => ({ status: 500, count: 1 }),
    "503×3": () => ({ status: 503, count: 3 }),
    "reset after send": () => ({ dropAfter: true, count: 1 }),
    "stall past timeout": () => ({ stallMs: timeoutMs + 500, count: 1 }),
    "409 in progress": () => ({ status: 409, count: 1 }),
    "507": () => ({ status: 507, count: 1 }),
    // A rate limit's 429 names its wait; without one the provider pauses its longest backoff (8 s: api-client.test.ts).
    "429": () => ({ status: 429, retryAfter: 1, count: 1 }),
    "late answer": () => ({ lateMs: timeoutMs + 500, count: 1 }),
  };
}

export const FAULT_NAMES = Object.keys(faultSpecs(0));

/** The matrix as text: one line per kind, one column per fault, ✓ when clean, ✗ when not, · when not run. */
export function formatMatrix(op: Op, kindNames: string[], results: Map<string, boolean>): string {
  const head = `| ${op} | ${FAULT_NAMES.join(" | ")} |`;
  const rule = `|${"---|".repeat(FAULT_NAMES.length + 1)}`;
  const mark = (cell: string) => (results.get(cell) ? "✓" : results.has(cell) ? "✗" : "·");
  const lines = kindNames.map((k) => `| ${k} | ${FAULT_NAMES.map((f) => mark(`${k}/${f}`)).join(" | ")} |`);
  const passed = [...results.values()].filter(Boolean).length;
  return [head, rule, ...lines, `${op}: ${passed}/${results.size} cells clean`].join("\n");
}
