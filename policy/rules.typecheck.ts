// Compile-time checks of the rules' types, run by `npm run build` (tsc): each
// `@ts-expect-error` fails the build if the line compiles. Nothing here runs.
import type { ResourceToken } from "../provider/resources";
import type { ValuesByToken } from "../sdk/schemaTypes.generated";
import type { ResourceRule } from "./rules";

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** The generated inputs are keyed by every token of the registry, and nothing else. */
export const everyToken: Same<keyof ValuesByToken, ResourceToken> = true;

type NoSettings = Record<string, never>;
const base = { name: "r", description: "d", enforcementLevel: "mandatory", settings: {} } as const;

export function ruleTypes(): unknown[] {
  // A rule reads its resource's own inputs: an ApiKey's are `expires` and `ipAllowList`.
  const fenced: ResourceRule<"ApiKey", NoSettings> = {
    ...base,
    appliesTo: "ApiKey",
    check: ({ props }) => [props.expires, ...props.ipAllowList.map((entry) => entry.address)],
  };
  const misnamed: ResourceRule<"ApiKey", NoSettings> = {
    ...base,
    appliesTo: "ApiKey",
    // @ts-expect-error an input the resource does not have (the ApiKey's is `expires`) does not compile
    check: ({ props }) => [String(props.expiresAt)],
  };
  const elsewhere: ResourceRule<"ApiKey", NoSettings> = {
    ...base,
    // @ts-expect-error a rule judges the resource its type names
    appliesTo: "Webhook",
    check: () => [],
  };
  return [fenced, misnamed, elsewhere];
}

// @ts-expect-error a token the registry does not have is refused
export type Undeclared = ResourceRule<"Router", NoSettings>;
