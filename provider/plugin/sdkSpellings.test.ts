import * as fs from "node:fs";
import * as path from "node:path";
import { goName, pythonName, withSdkSpellings } from "./sdkSpellings";

const root = path.join(__dirname, "..", "..");
const schema = JSON.parse(fs.readFileSync(path.join(root, "schema.json"), "utf8"));
const pythonSdk = path.join(root, "sdk-python", "pulumi_vplatform");

describe("an input's name in the Python SDK (Pulumi's PyName)", () => {
  test.each([
    ["ram", "ram"],
    ["cpuCores", "cpu_cores"],
    ["ipAllowList", "ip_allow_list"],
    ["IPAddress", "ip_address"],
    ["vmURLs", "vm_urls"],
    ["sha256Hash", "sha256_hash"],
    ["SHA256Hash", "sha256_hash"],
    ["from", "from_"],
  ])("%s is %s", (name, python) => expect(pythonName(name)).toBe(python));

  test("is the name of its property in the generated SDK (sdk-python/), for every input of every resource and type", () => {
    const sources = fs
      .readdirSync(pythonSdk)
      .filter((f) => f.endsWith(".py"))
      .map((f) => fs.readFileSync(path.join(pythonSdk, f), "utf8"))
      .join("\n");
    const names = [
      ...Object.values<{ inputProperties?: object }>(schema.resources).flatMap((r) => Object.keys(r.inputProperties ?? {})),
      ...Object.values<{ properties?: object }>(schema.types).flatMap((t) => Object.keys(t.properties ?? {})),
    ];
    const missing = [...new Set(names)].filter((name) => !sources.includes(`def ${pythonName(name)}(self)`));
    expect(missing).toEqual([]);
  });
});

describe("an input's name in the Go SDK (Pulumi's Title)", () => {
  test.each([
    ["ram", "Ram"],
    ["cpuCores", "CpuCores"],
  ])("%s is %s", (name, go) => expect(goName(name)).toBe(go));
});

describe("a refused input named as each SDK spells it", () => {
  const inputs = ["cpuCores", "ram", "ipAllowList"];
  test("a top-level input: its Python and Go names follow the reason", () => {
    expect(withSdkSpellings({ property: "cpuCores", reason: "must be at least 1" }, inputs)).toEqual({
      property: "cpuCores",
      reason: "must be at least 1 (Python: cpu_cores, Go: CpuCores)",
    });
  });

  test("only the spellings that differ from the schema's (a one-word input is the same in Python)", () => {
    expect(withSdkSpellings({ property: "ram", reason: "too small" }, inputs).reason).toBe("too small (Go: Ram)");
  });

  test("a nested input, whose path heads the reason, is spelled segment by segment", () => {
    expect(withSdkSpellings({ property: "", reason: "ipAllowList[0].address: not an address" }, inputs).reason).toBe(
      "ipAllowList[0].address: not an address (Python: ip_allow_list[0].address, Go: IpAllowList[0].Address)",
    );
  });

  test("a failure that names no input is left as it is", () => {
    const failure = { property: "", reason: "the machine 12 does not exist" };
    expect(withSdkSpellings(failure, inputs)).toBe(failure);
  });

  test("an input the resource does not have (a YAML typo) has no SDK spelling", () => {
    const failure = { property: "colour", reason: "'colour' is not an input of this resource (check its spelling)" };
    expect(withSdkSpellings(failure, inputs)).toBe(failure);
  });
});
