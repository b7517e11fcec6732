// What the engine prints for a refused input, from either door: the failure's path and value once, never
// the engine's `value {<nil>}` for a property it cannot find among the top-level inputs.
import type { PlatformApi, Row } from "../reconcile/platform";
import { RESOURCES } from "../resources";
import type { CheckFailure } from "../resources/framework/checkInputs";
import { dynamicDoor } from "../resources/framework/defineProvider";
import { SessionRegistry } from "../resources/framework/sessionRegistry";
import { VplatformProvider } from "./vplatformProvider";

type Token = keyof typeof RESOURCES;
const NAME = "k";
const SCHEMA = { name: "vplatform", version: "1.2.3", resources: {} };
/** A platform that answers every list empty: the checks below need no row. */
const platform = () => ({ list: async () => [], get: async () => undefined }) as unknown as PlatformApi;

/** Each door's check of a new resource of `token` (nothing recorded yet). */
const DOORS: Record<string, (token: Token, news: Row) => Promise<{ failures?: CheckFailure[] }>> = {
  plugin: (token, news) => {
    const p = new VplatformProvider(() => 0, { text: JSON.stringify(SCHEMA), schema: SCHEMA }, platform);
    p.configure({ endpoint: "https://platform.example", apiKey: "k" });
    return p.check(`urn:pulumi:dev::lab::vplatform:index:${token}::${NAME}`, {}, news);
  },
  dynamic: (token, news) => {
    const sessions = new SessionRegistry(platform);
    sessions.configure(token, () => undefined);
    return dynamicDoor(RESOURCES[token].operations, sessions).check({}, news);
  },
};

/**
 * The engine's line for a check failure (pulumi pkg/resource/deploy/step_generator.go, issueCheckFailures, with
 * sdk/go/common/diag/errors.go): with a property, the value is the input of that whole name, `{<nil>}` when none is.
 */
function engineLine(token: Token, inputs: Row, f: CheckFailure): string {
  const type = `vplatform:index:${token}`;
  return f.property
    ? `${type} resource '${NAME}': property ${f.property} value {${inputs[f.property] ?? "<nil>"}} has a problem: ${f.reason}`
    : `${type} resource '${NAME}' has a problem: ${f.reason}`;
}

async function engineLines(door: string, token: Token, news: Row): Promise<string[]> {
  const { failures = [] } = await DOORS[door](token, news);
  return failures.map((f) => engineLine(token, news, f));
}

/** The plugin door serves the Python and Go SDKs too: it adds their spellings of the input (sdkSpellings.ts). */
const SDK_SPELLINGS: Record<string, (spellings: string) => string> = { plugin: (s) => ` (${s})`, dynamic: () => "" };

describe.each(Object.keys(DOORS))("a refused input as the engine prints it, through the %s door", (door) => {
  test("an API key's IP entry that is neither an address nor a CIDR block: its path, then its value once", async () => {
    expect(await engineLines(door, "ApiKey", { name: "ci", ipAllowList: [{ address: "10.0.0.300" }] })).toEqual([
      "vplatform:index:ApiKey resource 'k' has a problem: ipAllowList[0].address: '10.0.0.300' is neither an IP address " +
        "nor a CIDR block: write an address (10.0.0.5, 2001:db8::5) or a block (10.0.0.0/24, 2001:db8::/32)" +
        SDK_SPELLINGS[door]("Python: ip_allow_list[0].address, Go: IpAllowList[0].Address"),
    ]);
  });

  test("a nested input (a webhook header's name) is named by its path at the head of the reason", async () => {
    const lines = await engineLines(door, "Webhook", { name: "w", url: "https://hooks.example", headers: [{ name: " ", value: "x" }] });
    expect(lines).toEqual([expect.stringMatching(/^vplatform:index:Webhook resource 'k' has a problem: headers\[0\]\.name: /)]);
  });

  test("a required input left out is named at the head of the reason", async () => {
    expect(await engineLines(door, "Webhook", { name: "w" })).toEqual([
      expect.stringMatching(/^vplatform:index:Webhook resource 'k' has a problem: url: /),
    ]);
  });

  test("a top-level input given stays the failure's property, and the engine shows its value", async () => {
    expect(await engineLines(door, "Vnet", { name: "n", network: "10.0.0.0/24/8" })).toEqual([
      expect.stringMatching(/^vplatform:index:Vnet resource 'k': property network value \{10\.0\.0\.0\/24\/8\} has a problem: /),
    ]);
  });

  test("several failures at once: a required input left out and an input this resource does not have", async () => {
    expect(await engineLines(door, "ApiKey", { colour: "red" })).toEqual([
      expect.stringMatching(/^vplatform:index:ApiKey resource 'k' has a problem: name: /),
      "vplatform:index:ApiKey resource 'k': property colour value {red} has a problem: 'colour' is not an input of this resource (check its spelling)",
    ]);
  });
});
