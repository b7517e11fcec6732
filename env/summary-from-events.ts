import type { EngineEvent, OutputMap, Stack, SummaryEvent, UpdateKind, UpdateSummary } from "@pulumi/pulumi/automation";
import { isMaskedSecret } from "./plan";

type Operation = "up" | "refresh" | "destroy";
const KIND: Record<Operation, UpdateKind> = { up: "update", refresh: "refresh", destroy: "destroy" };

/** Where the stack's outputs of an up come from: the engine's events when they hold no secret, else the CLI. */
export type OutputsAfterUp = "from-events" | "not-read";

/**
 * Automation's up, refresh and destroy end with more runs of the CLI: one reads the stack's last history entry for
 * the result's summary, and after an up two read its outputs (masked, then shown). Each loads the state and derives
 * the passphrase's key (10^6 rounds of PBKDF2): half a CPU-second apiece, a second and a half after every up. The
 * engine's events of the operation already hold the summary and, unless one is secret, the outputs: this stack
 * takes them from there and runs the CLI again only for outputs the events mask (either way they mask a secret).
 * `not-read` is for a caller that never looks at an up's outputs (the stack's `outputs()` still reads them). The
 * stack is unchanged otherwise: the returned object inherits everything else from it.
 */
export function summaryFromEvents(stack: Stack, outputsAfterUp: OutputsAfterUp): Stack {
  const run =
    (operation: Operation) =>
    async (opts: Parameters<Stack[Operation]>[0] = {}) => {
      const startTime = new Date();
      let summary: SummaryEvent | undefined;
      let outputs: Record<string, unknown> | undefined;
      const onEvent = (event: EngineEvent) => {
        if (event.summaryEvent) summary = event.summaryEvent;
        const step = event.resOutputsEvent?.metadata;
        if (step?.type === "pulumi:pulumi:Stack") outputs = step.new?.outputs ?? {};
        opts.onEvent?.(event);
      };
      // Automation's operation reads its summary and outputs through `this`: an object of its own per operation.
      const operationStack = Object.create(stack, {
        info: {
          value: async (showSecrets?: boolean): Promise<UpdateSummary | undefined> =>
            summary ? summaryOf(operation, summary, startTime) : stack.info(showSecrets),
        },
        outputs: {
          value: async (): Promise<OutputMap> => {
            if (outputsAfterUp === "not-read") return {};
            return outputs && !holdsSecret(outputs) ? outputMapOf(outputs) : stack.outputs();
          },
        },
      });
      return (stack[operation] as (o: typeof opts) => ReturnType<Stack[Operation]>).call(operationStack, { ...opts, onEvent });
    };
  return Object.create(stack, { up: { value: run("up") }, refresh: { value: run("refresh") }, destroy: { value: run("destroy") } });
}

/**
 * The operation's summary as the engine reported it; it ran to success, or Automation would have thrown. The
 * history entry's own fields (its number, message, environment and configuration) are not in the events: absent.
 */
function summaryOf(operation: Operation, event: SummaryEvent, startTime: Date): UpdateSummary {
  const known: Omit<UpdateSummary, "version" | "message" | "environment" | "config"> = {
    kind: KIND[operation],
    startTime,
    endTime: new Date(),
    result: "succeeded",
    resourceChanges: event.resourceChanges,
  };
  return known as UpdateSummary;
}

/** Whether a secret is masked anywhere in the value, however deep. */
const holdsSecret = (value: unknown): boolean =>
  isMaskedSecret(value) || (typeof value === "object" && value !== null && Object.values(value).some(holdsSecret));

const outputMapOf = (outputs: Record<string, unknown>): OutputMap =>
  Object.fromEntries(Object.entries(outputs).map(([name, value]) => [name, { value, secret: false }]));
