/**
 * Chaos controls (`/_emulator/chaos`), beside the fault switch: per table and method, a rule fires with a
 * probability and adds latency and/or answers an error status with its body instead of the real answer.
 * Unlike a fault it never retires by itself: it stays until cleared, like a flaky network or a sick
 * service. The probability draws from the emulator's seeded random source, so a seeded run hits the same
 * requests every time.
 */
import { validationError } from "../model/errors";
import { intField, probabilityField, ruleBody, ruleTarget, targets, type RuleTarget } from "./ruleFields";

export interface ChaosRule extends RuleTarget {
  id: number;
  /** 0–1, default 1. */
  probability: number;
  /** Added before the answer, real or injected. */
  latencyMs: number;
  status?: number;
  /** The injected answer's JSON body (default `{"error": "injected chaos (status N)"}`). */
  body?: unknown;
  /** Requests the rule fired on, and those it matched but spared (the probability said no). */
  hits: number;
  spared: number;
}

const CHAOS_FIELDS = ["method", "table", "probability", "latencyMs", "status", "body"];

export class ChaosControls {
  private rules: ChaosRule[] = [];
  private nextId = 1;

  constructor(private readonly random: () => number) {}

  add(input: unknown): ChaosRule {
    const b = ruleBody(input, "chaos", CHAOS_FIELDS);
    const status = intField(b, "status", 400, 599);
    const latencyMs = intField(b, "latencyMs", 0, 600_000) ?? 0;
    if (b.body !== undefined && status === undefined) throw validationError("body", "needs a status to go with");
    if (status === undefined && latencyMs === 0) throw validationError("status", "a chaos rule needs a status, a latencyMs or both");
    const rule: ChaosRule = {
      id: this.nextId++,
      ...ruleTarget(b),
      probability: probabilityField(b) ?? 1,
      latencyMs,
      status,
      body: b.body,
      hits: 0,
      spared: 0,
    };
    this.rules.push(rule);
    return rule;
  }

  list(): ChaosRule[] {
    return this.rules.map((rule) => ({ ...rule }));
  }

  /** Removes one rule (false when there is none by that id) or, without an id, every rule. */
  clear(id?: number): boolean {
    const before = this.rules.length;
    this.rules = id === undefined ? [] : this.rules.filter((rule) => rule.id !== id);
    return this.rules.length < before || id === undefined;
  }

  /** What happens to a request: the latency of every firing rule, and the first firing rule's answer. */
  decide(method: string, table: string): { latencyMs: number; answer?: { status: number; body: unknown } } {
    let latencyMs = 0;
    let answer: { status: number; body: unknown } | undefined;
    for (const rule of this.rules) {
      if (!targets(rule, method, table)) continue;
      if (this.random() >= rule.probability) {
        rule.spared++;
        continue;
      }
      rule.hits++;
      latencyMs += rule.latencyMs;
      if (rule.status === undefined || answer) continue;
      answer = { status: rule.status, body: rule.body ?? { error: `injected chaos (status ${rule.status})` } };
    }
    return { latencyMs, answer };
  }
}
