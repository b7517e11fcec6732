// Every code block of the README and docs/ that a user may copy is checked, without the engine: each TypeScript
// block is type-checked against this repository's SDK (one compiler program for all of them), each YAML
// environment file is validated by the environment loader, each Pulumi YAML project or program is parsed and
// its vplatform tokens looked up in schema.json. A block that is deliberately partial says so in its fence
// (```ts partial) and is skipped. Errors name the Markdown file and line.
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { parse } from "yaml";
import { ENVIRONMENT_KINDS, LABS, LISTED_TOKENS } from "../env/environment-kinds";
import { loadEnvironment } from "../env/load-environment";
import { type Block, fencedBlocks } from "./markdownBlocks";

const root = path.join(__dirname, "..");

/** The block's text where it stands in the Markdown file (after blank lines, re-indented), so a parser's lines and columns are the file's. */
const atMarkdownLines = (block: Block) => "\n".repeat(block.line - 1) + block.text.replace(/^(?=.)/gm, block.indent);

/** The top-level lists of an environment file (env/environment-kinds.ts), and its per-stack overlays. */
const ENVIRONMENT_KEYS = new Set<string>([...LISTED_TOKENS.map((t) => ENVIRONMENT_KINDS[t].list), LABS.list, "stacks"]);
/** The top-level keys of a Pulumi project file (Pulumi.yaml) and of a Pulumi YAML program. */
const PULUMI_KEYS = new Set([
  "name",
  "runtime",
  "description",
  "main",
  "config",
  "plugins",
  "resources",
  "variables",
  "outputs",
  "backend",
  "options",
]);

type Kind = "ts" | "environment" | "pulumi-yaml" | "partial" | "other";

/** What a block is checked as: partial blocks are skipped, languages other than TypeScript and YAML are not code to check. */
function kindOf(block: Block): Kind | { unknown: string } {
  if (block.flags.includes("partial")) return "partial";
  if (block.lang === "ts" || block.lang === "typescript") return "ts";
  if (block.lang !== "yaml" && block.lang !== "yml") return "other";
  let doc: unknown;
  try {
    doc = parse(block.text);
  } catch (e) {
    return { unknown: `not YAML (${(e as Error).message.split("\n")[0]})` };
  }
  const keys = doc && typeof doc === "object" && !Array.isArray(doc) ? Object.keys(doc) : [];
  if (keys.some((k) => ENVIRONMENT_KEYS.has(k))) return "environment";
  if (keys.length > 0 && keys.every((k) => PULUMI_KEYS.has(k))) return "pulumi-yaml";
  return { unknown: `top-level keys ${JSON.stringify(keys)} are neither an environment file's nor Pulumi's` };
}

/** The vplatform resource and function tokens a Pulumi YAML program names (`type:` of a resource, `function:` of an fn::invoke). */
function pulumiYamlTokens(node: unknown, key?: string): string[] {
  if (Array.isArray(node)) return node.flatMap((n) => pulumiYamlTokens(n));
  if (node && typeof node === "object") return Object.entries(node).flatMap(([k, v]) => pulumiYamlTokens(v, k));
  return (key === "type" || key === "function") && typeof node === "string" && node.startsWith("vplatform:") ? [node] : [];
}

/** The Markdown files whose snippets users copy: the README and every page of docs/. */
const markdownFiles = [
  "README.md",
  ...(fs.readdirSync(path.join(root, "docs"), { recursive: true }) as string[])
    .filter((f) => f.endsWith(".md"))
    .map((f) => path.posix.join("docs", f.split(path.sep).join("/"))),
];
const blocks = markdownFiles.flatMap((f) => fencedBlocks(f, fs.readFileSync(path.join(root, f), "utf8")));
const where = (b: Block) => `${b.file}:${b.line}`;
const ofKind = (kind: Kind) => blocks.filter((b) => kindOf(b) === kind);

/**
 * The TypeScript blocks type-checked as a user's files (strict, Node module resolution), `vplatform` and its
 * entry points resolved to this repository's sources, in one program; each block's diagnostics as `file:line:col`.
 */
function typeCheck(tsBlocks: Block[]): Map<Block, string[]> {
  const dir = path.join(root, ".markdown-snippets"); // never written: the host serves these files from memory
  const files = new Map(tsBlocks.map((b, i) => [path.join(dir, `${i}-${b.file.replace(/\W/g, "_")}-${b.line}.ts`), b]));
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2023,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    esModuleInterop: true,
    types: ["node"],
    baseUrl: root,
    paths: {
      vplatform: ["./sdk/index.ts"],
      "vplatform/env": ["./env/index.ts"],
      "vplatform/emulator": ["./emulator/index.ts"],
    },
  };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (f) => files.has(f) || fileExists(f);
  host.readFile = (f) => (files.has(f) ? atMarkdownLines(files.get(f)!) : readFile(f));
  host.getSourceFile = (f, language, ...rest) => {
    const block = files.get(f);
    return block ? ts.createSourceFile(f, atMarkdownLines(block), language) : getSourceFile(f, language, ...rest);
  };
  const program = ts.createProgram([...files.keys()], options, host);
  const result = new Map<Block, string[]>();
  for (const [file, block] of files) {
    const source = program.getSourceFile(file)!;
    const diagnostics = [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
    result.set(
      block,
      diagnostics.map((d) => {
        const { line, character } = source.getLineAndCharacterOfPosition(d.start ?? 0);
        return `${block.file}:${line + 1}:${character + 1}: TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
      }),
    );
  }
  return result;
}

describe("fenced blocks are found as a reader sees them", () => {
  const markdown = [
    "1. Step:", //                          line 1
    "", //                                  line 2
    "   ```ts", //                          line 3
    "   const a = 1;", //                   line 4
    "   ```", //                            line 5
    "````markdown", //                      line 6
    "```yaml", //                           line 7
    "a: 1", //                              line 8
    "```", //                               line 9
    "````", //                              line 10
    "```yaml partial", //                   line 11
    "plugins: {}", //                       line 12
    "```", //                               line 13
  ].join("\n");
  const found = fencedBlocks("x.md", markdown);
  test("an indented block (a list item's) is de-indented, and its text starts at the line after the fence", () => {
    expect(found[0]).toEqual({ file: "x.md", line: 4, indent: "   ", lang: "ts", flags: [], text: "const a = 1;" });
  });
  test("a fence inside a longer fence is text of the outer block", () => {
    expect(found.map((b) => b.lang)).toEqual(["ts", "markdown", "yaml"]);
    expect(found[1].text).toBe("```yaml\na: 1\n```");
  });
  test("the words after the language are flags: `partial` skips the block", () => {
    expect(found[2].flags).toEqual(["partial"]);
    expect(kindOf(found[2])).toBe("partial");
  });
  test("YAML is an environment file by its lists, a Pulumi file by Pulumi's keys, and anything else is refused", () => {
    const yaml = (text: string): Block => ({ file: "x.md", line: 1, indent: "", lang: "yaml", flags: [], text });
    expect(kindOf(yaml("vms:\n  - name: web\n"))).toBe("environment");
    expect(kindOf(yaml("apiKeys: []\n"))).toBe("environment");
    expect(kindOf(yaml("name: p\nruntime: nodejs\n"))).toBe("pulumi-yaml");
    expect(kindOf(yaml("resources: {}\n"))).toBe("pulumi-yaml");
    expect(kindOf(yaml("steps: []\n"))).toEqual({ unknown: expect.stringContaining('["steps"]') });
  });
  test("a Pulumi YAML program's vplatform tokens are its resources' types and its invokes' functions", () => {
    const doc = parse(
      "variables:\n  v:\n    fn::invoke:\n      function: vplatform:index:getVnet\nresources:\n  a:\n    type: vplatform:index:Vnet\n  b:\n    type: random:index:RandomId\n",
    );
    expect(pulumiYamlTokens(doc)).toEqual(["vplatform:index:getVnet", "vplatform:index:Vnet"]);
  });
});

const counts = `${blocks.length} blocks: ${ofKind("ts").length} TypeScript, ${ofKind("environment").length} environment files, ${ofKind("pulumi-yaml").length} Pulumi YAML checked; ${ofKind("partial").length} partial skipped; ${ofKind("other").length} of other languages`;

describe(`the README's and docs/'s snippets (${counts})`, () => {
  test("the snippets are found (sanity: the README's first program and its YAML twin)", () => {
    expect(ofKind("ts").some((b) => b.file === "README.md" && b.text.includes('new vp.Vnet("lab"'))).toBe(true);
    expect(ofKind("environment").some((b) => b.file === "README.md")).toBe(true);
  });

  test("every YAML block is an environment file or a Pulumi YAML file, or says `partial` in its fence", () => {
    const unknown = blocks.flatMap((b) => {
      const kind = kindOf(b);
      return typeof kind === "object" ? [`${where(b)}: ${kind.unknown}: mark its fence \`yaml partial\` if it is a fragment`] : [];
    });
    expect(unknown).toEqual([]);
  });

  describe("TypeScript blocks type-check against the SDK", () => {
    const diagnostics = typeCheck(ofKind("ts"));
    test.each(ofKind("ts").map((b) => [where(b), b] as const))("%s", (_where, block) => {
      expect(diagnostics.get(block)).toEqual([]);
    });
  });

  describe("YAML environment files are valid for the environment loader", () => {
    test.each(ofKind("environment").map((b) => [where(b), b] as const))("%s", (_where, block) => {
      expect(() => loadEnvironment(block.file, atMarkdownLines(block))).not.toThrow();
    });
  });

  describe("Pulumi YAML files parse, and name only resources and functions of schema.json", () => {
    const schema = JSON.parse(fs.readFileSync(path.join(root, "schema.json"), "utf8"));
    const known = new Set([...Object.keys(schema.resources), ...Object.keys(schema.functions ?? {})]);
    test.each(ofKind("pulumi-yaml").map((b) => [where(b), b] as const))("%s", (_where, block) => {
      const doc = parse(atMarkdownLines(block), { prettyErrors: true });
      expect(pulumiYamlTokens(doc).filter((t) => !known.has(t))).toEqual([]);
    });
  });
});
