// How the SDKs generated from schema.json spell an input: a refused input is named as the program wrote it, whatever
// its language (the engine passes the provider no language, so the plugin door names them all where they differ).

const PYTHON_KEYWORDS: ReadonlySet<string> = new Set(
  "False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield".split(
    " ",
  ),
);

/**
 * A property's name in the Python SDK: Pulumi's PyName (pkg/codegen/python/python.go), snake_case where an
 * acronym stays one word (`vmKey` -> `vm_key`, `IPAddress` -> `ip_address`, `URLs` -> `urls`); a keyword gets `_`.
 */
export function pythonName(name: string): string {
  const words: string[] = [];
  let word = "";
  let state: "first" | "upper" | "acronym" | "lower" = "first";
  for (const char of name.replace(/[^\w]/g, "_")) {
    const upper = char !== char.toLowerCase();
    if (state === "first" || state === "upper") {
      word += char.toLowerCase();
      state = upper ? (state === "first" ? "upper" : "acronym") : "lower";
    } else if (state === "acronym") {
      if (upper) word += char.toLowerCase();
      else if (/[0-9s]/.test(char)) {
        word += char;
        state = "lower";
      } else {
        words.push(word.slice(0, -1));
        word = word.slice(-1) + char;
        state = "lower";
      }
    } else if (upper) {
      words.push(word);
      word = char.toLowerCase();
      state = "upper";
    } else word += char;
  }
  const snake = [...words, word].filter((w) => w !== "").join("_");
  return PYTHON_KEYWORDS.has(snake) ? `${snake}_` : snake;
}

/** A property's field name in the Go SDK: Pulumi's Title (pkg/codegen/go/gen.go), its first letter upper-case. */
export function goName(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** An input's path (`ipAllowList[0].address`, `cpuCores`) in a language, each name spelled by `spell`. */
function spellPath(path: string, spell: (name: string) => string): string {
  return path.replace(/[A-Za-z_$][\w$]*/g, spell);
}

/**
 * The failure's reason followed by the input's spelling in the Python and Go SDKs where it differs from the
 * schema's (TypeScript and YAML programs use the schema's): `... (Python: cpu_cores, Go: CpuCores)`. The path
 * is the failure's property, or heads its reason (`ipAllowList[0].address: ...`) when the engine is given none;
 * an input the resource does not have (`inputs`) has no SDK spelling.
 */
export function withSdkSpellings(
  failure: { property: string; reason: string },
  inputs: readonly string[],
): { property: string; reason: string } {
  const path = failure.property || /^([A-Za-z_$][\w$]*(?:\[\d+\]|\.[A-Za-z_$][\w$]*)*): /.exec(failure.reason)?.[1];
  if (!path || !inputs.includes(/^[^.[]*/.exec(path)?.[0] ?? "")) return failure;
  const spellings = [
    ["Python", spellPath(path, pythonName)],
    ["Go", spellPath(path, goName)],
  ].filter(([, spelled]) => spelled !== path);
  if (spellings.length === 0) return failure;
  return { ...failure, reason: `${failure.reason} (${spellings.map(([language, spelled]) => `${language}: ${spelled}`).join(", ")})` };
}
