import { z } from "zod";
import { fieldMeta, type Shape } from "./common";
import { userShape } from "../resources/user/schema";
import { apiKeyShape } from "../resources/apiKey/schema";
import { webhookShape } from "../resources/webhook/schema";
import { taskShape } from "../resources/task/schema";
import { eventTriggerShape } from "../resources/eventTrigger/schema";
import { scheduleShape } from "../resources/schedule/schema";
const shapes: [string, Shape][] = [
  ["User", userShape],
  ["ApiKey", apiKeyShape],
  ["Webhook", webhookShape],
  ["Task", taskShape],
  ["EventTrigger", eventTriggerShape],
  ["Schedule", scheduleShape],
];
function undescribed(name: string, js: Record<string, unknown>): string[] {
  const own = js.description ? [] : [name];
  const props = (js.properties ?? (js.items as Record<string, unknown> | undefined)?.properties ?? {}) as Record<
    string,
    Record<string, unknown>
  >;
  const inner = Object.entries(props).flatMap(([k, p]) => undescribed(`${name}.${k}`, p));
  const anyOf = ((js.anyOf ?? js.oneOf ?? []) as Record<string, unknown>[])
    .filter((a) => a.properties)
    .flatMap((a) => undescribed(name, { ...a, description: "-" }));
  return [...own, ...inner, ...anyOf];
}
/** The rules provider/schemas/metadata.test.ts holds the registered resources to, for the automation shapes not yet registered. */
describe("automation schemas declare their metadata", () => {
  test("every field is described, mapped to the API (or a control input), secret only as a string or one JSON object, and removable as its default says", () => {
    const out: string[] = [];
    for (const [r, shape] of shapes)
      for (const [f, s] of Object.entries(shape)) {
        out.push(
          ...undescribed(`${r}.${f}`, z.toJSONSchema(s, { io: "input", unrepresentable: "any" }) as Record<string, unknown>).map(
            (x) => `nodesc ${x}`,
          ),
        );
        const m = fieldMeta(s) ?? ({} as any);
        if (m.api === undefined && !["control", "action", "replace"].includes(m.onChange)) out.push(`noapi ${r}.${f} ${m.onChange}`);
        // A webhook's authorization is one secret object (its type and value travel together).
        if (m.secret && (m.api === undefined || !["string", "json"].includes(m.kind))) out.push(`secret ${r}.${f} ${m.kind}`);
        const opt = s.safeParse(undefined).success;
        if (opt && m.whenRemoved !== (s.safeParse(undefined).data === undefined ? "unmanaged" : "default")) out.push(`removed ${r}.${f}`);
        if (/replaces|REPLACES/.test(m.description) && !["replace", "growOnly"].includes(m.onChange)) out.push(`promise ${r}.${f}`);
      }
    expect(out).toEqual([]);
  });
});
