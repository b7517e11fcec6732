/**
 * sdk/schemaTypes.generated.ts: the input and output types of every resource
 * and the result types of the look-ups, written out as plain TypeScript, so the published declarations import no zod
 * (zod's own declarations do not compile under a user's older `commonjs` +
 * `node` TypeScript settings). The zod schemas stay the one source of truth:
 * each type is what the compiler makes of `z.input`/`z.output` of the schema,
 * and each field's comment is its schema description.
 *   node dist/scripts/gen-sdk-types.js [--check]
 */
import * as fs from "fs";
import * as path from "path";
import * as ts from "typescript";
import { fieldMeta } from "../provider/schemas/common";
import { resourceSchemas } from "../provider/schemas";
import { LOOKUP_FUNCTIONS, type LookupFunction } from "../provider/resources/lookupFunctions";

export const GENERATED_FILE = "sdk/schemaTypes.generated.ts";
const SCHEMAS_DIR = "provider/schemas";

export interface SchemaTarget {
  token: string;
  description: string;
  schema: unknown;
  /** Where the compiler finds the schema: module path (no extension) and export name. */
  module: string;
  exportName: string;
  /** The declared computed outputs and their export (none when the resource has none). */
  outputs: Record<string, { type: string; description: string }>;
  outputsExport?: string;
}

/** Finds, for each resource of the registry, the module exports that are its input schema and its output declarations. */
export function schemaTargets(root: string): SchemaTarget[] {
  const modules = fs
    .readdirSync(path.join(root, SCHEMAS_DIR))
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts") && f !== "index.ts")
    .map((f) => f.replace(/\.ts$/, ""));
  const exportsOf = new Map(modules.map((m) => [m, require(path.join(__dirname, "..", SCHEMAS_DIR, m)) as Record<string, unknown>]));
  return resourceSchemas.map((r) => {
    for (const [module, exported] of exportsOf) {
      const exportName = Object.keys(exported).find((k) => exported[k] === r.inputs);
      if (!exportName) continue;
      const outputsExport = Object.keys(r.outputs).length ? Object.keys(exported).find((k) => exported[k] === r.outputs) : undefined;
      if (Object.keys(r.outputs).length && !outputsExport) throw new Error(`${r.token}: its output declarations are not exported by ${SCHEMAS_DIR}/${module}`);
      return { token: r.token, description: r.description, schema: r.inputs, module, exportName, outputs: r.outputs, outputsExport };
    }
    throw new Error(`${r.token}: its input schema is not exported by any module of ${SCHEMAS_DIR}`);
  });
}

export const inName = (token: string) => `${token}Inputs`;
export const outName = (token: string) => `${token}Values`;
export const computedName = (token: string) => `${token}Computed`;

const OUTPUT_TYPES: Record<string, string> = { string: "string", boolean: "boolean", integer: "number" };

/** Declared outputs as an interface named `name` (the SDK brands machine keys). */
function outputsInterface(name: string, doc: string, outputs: Record<string, { type: string; description: string }>): string {
  const fields = Object.entries(outputs).map(([field, o]) => {
    const type = OUTPUT_TYPES[o.type];
    if (!type) throw new Error(`${name}.${field}: output type ${o.type} has no TypeScript type here`);
    return `    /** ${o.description} */\n    ${field}: ${type};`;
  });
  return [`/** ${doc} */`, `export interface ${name} {`, ...fields, "}"].join("\n");
}

const computedInterface = (t: SchemaTarget) => outputsInterface(computedName(t.token), `${t.token} outputs computed by the provider (besides the echoed inputs and \`id\`).`, t.outputs);

/** `getVnet` → `GetVnetResult`: the result of a look-up (provider/resources/lookupFunctions). */
export const lookupResultName = (fn: string) => `${fn[0].toUpperCase()}${fn.slice(1)}Result`;

const lookupResultInterface = (fn: LookupFunction) => outputsInterface(lookupResultName(fn.name), `${fn.name}: ${fn.description}`, fn.outputs);

/** The zod schema inside optional/default/nullable/pipe wrappers, as far as it is an object or an array. */
function unwrap(schema: unknown): any {
  let s: any = schema;
  for (let i = 0; i < 10 && s?.def; i++) {
    const d = s.def;
    if (d.type === "optional" || d.type === "nullable" || d.type === "default" || d.type === "prefault" || d.type === "readonly") s = d.innerType;
    else if (d.type === "pipe") s = d.in;
    else break;
  }
  return s;
}

/** Adds each field's schema description as a doc comment, at any depth (objects, array items). */
function documented(node: ts.TypeNode, schema: unknown): ts.TypeNode {
  const s = unwrap(schema);
  if (ts.isTypeLiteralNode(node) && s?.def?.type === "object") {
    const shape = s.def.shape as Record<string, unknown>;
    return ts.factory.updateTypeLiteralNode(
      node,
      ts.factory.createNodeArray(
        node.members.map((m) => {
          if (!ts.isPropertySignature(m) || !m.type) return m;
          const name = ts.isIdentifier(m.name) || ts.isStringLiteral(m.name) ? m.name.text : undefined;
          const field = name === undefined ? undefined : shape[name];
          if (field === undefined) return m;
          const member = ts.factory.updatePropertySignature(m, m.modifiers, m.name, m.questionToken, documented(m.type, field));
          const description = fieldMeta(field)?.description;
          return description ? docComment(member, description) : member;
        }),
      ),
    );
  }
  if (ts.isArrayTypeNode(node) && s?.def?.type === "array") return ts.factory.updateArrayTypeNode(node, documented(node.elementType, s.def.element));
  if (ts.isUnionTypeNode(node)) return ts.factory.updateUnionTypeNode(node, ts.factory.createNodeArray(node.types.map((t) => documented(t, schema))));
  return node;
}

function docComment<T extends ts.Node>(node: T, text: string): T {
  return ts.addSyntheticLeadingComment(node, ts.SyntaxKind.MultiLineCommentTrivia, `* ${text.replace(/\*\//g, "*\\/")} `, true);
}

/**
 * Compiles `source` as if it were a file of scripts/ (never written), with the
 * project's compiler options; throws with the compiler's messages if it has errors.
 */
export function compileProbe(root: string, source: string): { program: ts.Program; file: ts.SourceFile } {
  const probe = path.join(root, "scripts", "__sdk_types_probe.ts");
  const config = ts.parseJsonConfigFileContent(ts.readConfigFile(path.join(root, "tsconfig.json"), ts.sys.readFile).config, ts.sys, root);
  const options: ts.CompilerOptions = { ...config.options, noEmit: true, types: [] };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile;
  host.getSourceFile = (name, ...rest) => (path.resolve(name) === probe ? ts.createSourceFile(name, source, ts.ScriptTarget.Latest, true) : getSourceFile(name, ...rest));
  const fileExists = host.fileExists;
  host.fileExists = (name) => path.resolve(name) === probe || fileExists(name);
  const program = ts.createProgram([probe], options, host);
  const file = program.getSourceFile(probe)!;
  const problems = ts.getPreEmitDiagnostics(program, file);
  if (problems.length) throw new Error(ts.formatDiagnostics(problems, host));
  return { program, file };
}

/** The compiler's expansion of z.input/z.output of each schema. */
function expandedTypes(root: string, list: SchemaTarget[]): Map<string, ts.TypeNode> {
  const source = [
    `import type { z } from "zod";`,
    ...list.map((t) => `import { ${t.exportName} } from "../${SCHEMAS_DIR}/${t.module}";`),
    ...list.flatMap((t) => [
      `export type ${inName(t.token)} = z.input<typeof ${t.exportName}>;`,
      `export type ${outName(t.token)} = z.output<typeof ${t.exportName}>;`,
    ]),
  ].join("\n");
  const { program, file } = compileProbe(root, source);
  const checker = program.getTypeChecker();
  const flags = ts.NodeBuilderFlags.NoTruncation | ts.NodeBuilderFlags.InTypeAlias | ts.NodeBuilderFlags.MultilineObjectLiterals | ts.NodeBuilderFlags.IgnoreErrors;
  const types = new Map<string, ts.TypeNode>();
  for (const statement of file.statements) {
    if (!ts.isTypeAliasDeclaration(statement)) continue;
    const type = checker.getTypeAtLocation(statement.name);
    const node = checker.typeToTypeNode(type, undefined, flags);
    if (!node || /\bz\.|import\(/.test(ts.createPrinter().printNode(ts.EmitHint.Unspecified, node, file))) {
      throw new Error(`${statement.name.text}: the compiler could not write it as a plain type`);
    }
    types.set(statement.name.text, node);
  }
  return types;
}

/** The generated file's text. */
export function sdkTypesFile(root: string): string {
  const list = schemaTargets(root);
  const types = expandedTypes(root, list);
  const printer = ts.createPrinter({ newLine: ts.NewLineKind.LineFeed });
  const out = ts.createSourceFile(GENERATED_FILE, "", ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const declare = (name: string, schema: unknown, doc: string) => {
    const node = documented(types.get(name)!, schema);
    const exported = [ts.factory.createModifier(ts.SyntaxKind.ExportKeyword)];
    const declaration = ts.isTypeLiteralNode(node)
      ? ts.factory.createInterfaceDeclaration(exported, name, undefined, undefined, node.members)
      : ts.factory.createTypeAliasDeclaration(exported, name, undefined, node);
    return printer.printNode(ts.EmitHint.Unspecified, docComment(declaration, doc), out);
  };
  const body = [
    ...list.flatMap((t) => [
      declare(inName(t.token), t.schema, `${t.token} inputs as a program declares them. ${t.description}`),
      declare(outName(t.token), t.schema, `${t.token} inputs as validated and normalized: what its outputs hold.`),
      ...(t.outputsExport ? [computedInterface(t)] : []),
    ]),
    ...LOOKUP_FUNCTIONS.map(lookupResultInterface),
  ];
  const header = [
    "// Generated by scripts/gen-sdk-types.ts from the zod input schemas (provider/schemas) and the look-ups (provider/resources/lookupFunctions): do not edit.",
    "// Plain types, so that the published declarations need no zod. Regenerate: npm run build && node dist/scripts/gen-sdk-types.js",
  ];
  return [...header, "", body.join("\n\n"), ""].join("\n");
}

if (require.main === module) {
  const root = path.resolve(__dirname, "..", "..");
  const text = sdkTypesFile(root);
  const target = path.join(root, GENERATED_FILE);
  const current = fs.existsSync(target) ? fs.readFileSync(target, "utf8") : undefined;
  if (current === text) process.exit(0);
  if (process.argv.includes("--check")) {
    console.error(`${GENERATED_FILE} is stale: run \`npm run build && node dist/scripts/gen-sdk-types.js\``);
    process.exit(1);
  }
  fs.writeFileSync(target, text);
  console.log(`wrote ${GENERATED_FILE}`);
}
