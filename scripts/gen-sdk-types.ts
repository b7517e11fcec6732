/**
 * sdk/schemaTypes.generated.ts: the input and output types of every resource
 * and the look-ups' results; sdk/resources.generated.ts: the SDK's class of every resource;
 * sdk/lookups.generated.ts: the SDK's function of every look-up;
 * and env/environmentTypes.generated.ts: the validated environment file (naming the SDK's types where an entry is a
 * resource's own), written out as plain TypeScript, so the published declarations import no zod
 * (zod's own declarations do not compile under a user's older `commonjs` +
 * `node` TypeScript settings). The zod schemas stay the one source of truth:
 * each type is what the compiler makes of `z.input`/`z.output` of the schema,
 * and each field's comment is its schema description.
 *   node dist/scripts/gen-sdk-types.js [--check]
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { fieldMeta } from "../provider/schemas/common";
import { RESOURCE_LIST, type Resource } from "../provider/resources";
import { SETTINGS, SETTING_NAMES, type SettingSpec } from "../provider/config/provider-config";
import { LOOKUP_FUNCTIONS, type LookupFunction } from "../provider/resources/lookupFunctions";

export const GENERATED_FILE = "sdk/schemaTypes.generated.ts";
export const SDK_CLASSES_FILE = "sdk/resources.generated.ts";
export const SDK_LOOKUPS_FILE = "sdk/lookups.generated.ts";
export const ENVIRONMENT_TYPES_FILE = "env/environmentTypes.generated.ts";
/** A resource's input schema (and output declarations) are exported by its folder's schema module. */
const schemaModuleOf = (r: Pick<Resource, "dynamicFile">) => `provider/resources/${r.dynamicFile}/schema`;

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

/** Finds, for each resource of the registry, the exports of its schema module that are its input schema and its output declarations. */
export function schemaTargets(_root: string, resourceList: readonly Resource[] = RESOURCE_LIST): SchemaTarget[] {
  return resourceList.map((r) => {
    const module = schemaModuleOf(r);
    const exported = require(path.join(__dirname, "..", module)) as Record<string, unknown>;
    const exportName = Object.keys(exported).find((k) => exported[k] === r.inputs);
    if (!exportName) throw new Error(`${r.token}: its input schema is not exported by ${module}`);
    const outputsExport = Object.keys(r.outputs).length ? Object.keys(exported).find((k) => exported[k] === r.outputs) : undefined;
    if (Object.keys(r.outputs).length && !outputsExport)
      throw new Error(`${r.token}: its output declarations are not exported by ${module}`);
    return { token: r.token, description: r.description, schema: r.inputs, module, exportName, outputs: r.outputs, outputsExport };
  });
}

export const inName = (token: string) => `${token}Inputs`;
export const outName = (token: string) => `${token}Values`;
export const computedName = (token: string) => `${token}Computed`;

const OUTPUT_TYPES: Record<string, string> = { string: "string", boolean: "boolean", integer: "number" };

/** Declared outputs as an interface named `name`. */
function outputsInterface(
  name: string,
  doc: string,
  outputs: Record<string, { type: string; description: string; optional?: boolean }>,
): string {
  const fields = Object.entries(outputs).map(([field, o]) => {
    const type = OUTPUT_TYPES[o.type];
    if (!type) throw new Error(`${name}.${field}: output type ${o.type} has no TypeScript type here`);
    // An output recorded only with an opt-in setting (optionalOutput) may be absent.
    return `    /** ${o.description} */\n    ${field}${o.optional ? "?" : ""}: ${type};`;
  });
  return [`/** ${doc} */`, `export interface ${name} {`, ...fields, "}"].join("\n");
}

const computedInterface = (t: SchemaTarget) =>
  outputsInterface(computedName(t.token), `${t.token} outputs computed by the provider (besides the echoed inputs and \`id\`).`, t.outputs);

const pascalName = (fn: string) => `${fn[0].toUpperCase()}${fn.slice(1)}`;
/** `getVnet` → `GetVnetArgs`: the arguments of a look-up (provider/resources/lookupFunctions). */
export const lookupArgsName = (fn: string) => `${pascalName(fn)}Args`;
/** `getVnet` → `GetVnetResult`: the result of a look-up. */
export const lookupResultName = (fn: string) => `${pascalName(fn)}Result`;

const LOOKUPS_MODULE = "provider/resources/lookupFunctions";
/** A look-up's argument and result types, as its declaration's schemas make them. */
const lookupTypes = (fn: LookupFunction): PlainType[] => [
  {
    name: lookupArgsName(fn.name),
    of: "input",
    schema: fn.args,
    module: LOOKUPS_MODULE,
    exportName: "LookupArgsOf",
    type: `LookupArgsOf["${fn.name}"]`,
    doc: `Arguments of ${fn.name}: ${fn.description}`,
  },
  {
    name: lookupResultName(fn.name),
    of: "output",
    schema: fn.result,
    module: LOOKUPS_MODULE,
    exportName: "LookupResultOf",
    type: `LookupResultOf["${fn.name}"]`,
    doc: `${fn.name}: ${fn.description}`,
  },
];

/** The zod schema inside optional/default/nullable/pipe wrappers, as far as it is an object or an array. */
// biome-ignore lint/suspicious/noExplicitAny: walks zod's internal definitions, which are not typed for this
function unwrap(schema: unknown): any {
  // biome-ignore lint/suspicious/noExplicitAny: as above
  let s: any = schema;
  for (let i = 0; i < 10 && s?.def; i++) {
    const d = s.def;
    if (d.type === "optional" || d.type === "nullable" || d.type === "default" || d.type === "prefault" || d.type === "readonly")
      s = d.innerType;
    else if (d.type === "pipe") s = d.in;
    else break;
  }
  return s;
}

/** The name of a property, as the compiler wrote it. */
const memberName = (m: ts.TypeElement) => (m.name && (ts.isIdentifier(m.name) || ts.isStringLiteral(m.name)) ? m.name.text : undefined);

/** Adds each field's schema description as a doc comment, at any depth (objects, array items); fields in the schema's order. */
function documented(node: ts.TypeNode, schema: unknown): ts.TypeNode {
  const s = unwrap(schema);
  if (ts.isTypeLiteralNode(node) && s?.def?.type === "object") {
    const shape = s.def.shape as Record<string, unknown>;
    // A shape built by a mapped type is written in the compiler's order, not the schema's.
    const order = Object.keys(shape);
    const position = (m: ts.TypeElement) => order.indexOf(memberName(m) ?? "");
    return ts.factory.updateTypeLiteralNode(
      node,
      ts.factory.createNodeArray(
        [...node.members]
          .sort((a, b) => position(a) - position(b))
          .map((m) => {
            if (!ts.isPropertySignature(m) || !m.type) return m;
            const name = memberName(m);
            const field = name === undefined ? undefined : shape[name];
            if (field === undefined) return m;
            const member = ts.factory.updatePropertySignature(m, m.modifiers, m.name, m.questionToken, documented(m.type, field));
            const description = fieldMeta(field)?.description;
            return description ? docComment(member, description) : member;
          }),
      ),
    );
  }
  if (ts.isArrayTypeNode(node) && s?.def?.type === "array")
    return ts.factory.updateArrayTypeNode(node, documented(node.elementType, s.def.element));
  if (ts.isUnionTypeNode(node))
    return ts.factory.updateUnionTypeNode(node, ts.factory.createNodeArray(node.types.map((t) => documented(t, schema))));
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
  host.getSourceFile = (name, ...rest) =>
    path.resolve(name) === probe ? ts.createSourceFile(name, source, ts.ScriptTarget.Latest, true) : getSourceFile(name, ...rest);
  const fileExists = host.fileExists;
  host.fileExists = (name) => path.resolve(name) === probe || fileExists(name);
  const program = ts.createProgram([probe], options, host);
  const file = program.getSourceFile(probe)!;
  const problems = ts.getPreEmitDiagnostics(program, file);
  if (problems.length) throw new Error(ts.formatDiagnostics(problems, host));
  return { program, file };
}

/**
 * A plain type to write: `z.input` or `z.output` of the schema exported as `exportName` by `module` (from the root,
 * no extension), or the `type` expression over that export (a look-up's arguments: `LookupArgsOf["getVnet"]`).
 */
interface PlainType {
  name: string;
  of: "input" | "output";
  schema: unknown;
  module: string;
  exportName: string;
  type?: string;
  doc: string;
}

/** The compiler's expansion of each type. */
function expandedTypes(root: string, list: PlainType[]): Map<string, ts.TypeNode> {
  const modules = [...new Set(list.map((t) => t.module))];
  const source = [
    `import type { z } from "zod";`,
    ...modules.map(
      (m) => `import type { ${[...new Set(list.filter((t) => t.module === m).map((t) => t.exportName))].join(", ")} } from "../${m}";`,
    ),
    ...list.map((t) => `export type ${t.name} = ${t.type ?? `z.${t.of}<typeof ${t.exportName}>`};`),
  ].join("\n");
  const { program, file } = compileProbe(root, source);
  const checker = program.getTypeChecker();
  const flags =
    ts.NodeBuilderFlags.NoTruncation |
    ts.NodeBuilderFlags.InTypeAlias |
    ts.NodeBuilderFlags.MultilineObjectLiterals |
    ts.NodeBuilderFlags.IgnoreErrors;
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

/** A generated file: the header, then each type as an interface (or an alias when it is not an object), documented. */
function plainTypesFile(
  root: string,
  target: string,
  source: string,
  list: PlainType[],
  extra: (name: string) => string[] = () => [],
  tail: string[] = [],
  reuse?: SdkReuse,
): string {
  const types = expandedTypes(root, list);
  const printer = ts.createPrinter({ newLine: ts.NewLineKind.LineFeed });
  const out = ts.createSourceFile(target, "", ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const body = list.flatMap((t) => {
    const expanded = documented(types.get(t.name)!, t.schema);
    const node = reuse ? reuse.rewrite(expanded) : expanded;
    const exported = [ts.factory.createModifier(ts.SyntaxKind.ExportKeyword)];
    const declaration = ts.isTypeLiteralNode(node)
      ? ts.factory.createInterfaceDeclaration(exported, t.name, undefined, undefined, node.members)
      : ts.factory.createTypeAliasDeclaration(exported, t.name, undefined, node);
    return [printer.printNode(ts.EmitHint.Unspecified, docComment(declaration, t.doc), out), ...extra(t.name)];
  });
  const header = [
    `// Generated by scripts/gen-sdk-types.ts from ${source}: do not edit.`,
    "// Plain types, so that the published declarations need no zod. Regenerate: npm run build && node dist/scripts/gen-sdk-types.js",
    ...(reuse?.imports() ?? []),
  ];
  return [...header, "", [...body, ...tail].join("\n\n"), ""].join("\n");
}

/** An interface from each resource's token to its type named by `typeName` (e.g. `ApiKey: ApiKeyValues`). */
function byTokenInterface(name: string, doc: string, tokens: string[], typeName: (token: string) => string): string {
  return [`/** ${doc} */`, `export interface ${name} {`, ...tokens.map((t) => `    ${t}: ${typeName(t)};`), "}"].join("\n");
}

const SETTING_TYPES = { string: "string", boolean: "boolean", integer: "number" } as const;

/** The provider settings (provider/config's declaration) as the value types a `vp.Provider` takes. */
function providerSettingsInterface(): string {
  const fields = SETTING_NAMES.map((s) => {
    const spec: SettingSpec = SETTINGS[s];
    return `    /** ${spec.description}${spec.secret ? " (kept a Pulumi secret)" : ""} */\n    ${s}?: ${SETTING_TYPES[spec.type]};`;
  });
  return [
    "/** The settings of one site, as `vplatform:<setting>` in the stack config takes them. */",
    "export interface ProviderSettings {",
    ...fields,
    "}",
  ].join("\n");
}

/** The SDK's file: inputs, validated values and computed outputs of every resource, and the look-ups' results. */
export function sdkTypesFile(root: string): string {
  const list = schemaTargets(root);
  const schemaModule = (t: SchemaTarget) => ({ schema: t.schema, module: t.module, exportName: t.exportName });
  const types = list.flatMap((t): PlainType[] => [
    { name: inName(t.token), of: "input", ...schemaModule(t), doc: `${t.token} inputs as a program declares them. ${t.description}` },
    {
      name: outName(t.token),
      of: "output",
      ...schemaModule(t),
      doc: `${t.token} inputs as validated and normalized: what its outputs hold.`,
    },
  ]);
  const computed = new Map(list.filter((t) => t.outputsExport).map((t) => [outName(t.token), computedInterface(t)]));
  const tokens = list.map((t) => t.token);
  const byToken = [
    providerSettingsInterface(),
    byTokenInterface("InputsByToken", "Each resource's inputs as a program declares them, by its token.", tokens, inName),
    byTokenInterface(
      "ValuesByToken",
      "Each resource's inputs as validated and normalized, by its token: what the provider's check answers (and a policy sees).",
      tokens,
      outName,
    ),
  ];
  const source = "the zod input schemas (provider/resources/<resource>/schema.ts) and the look-ups (provider/resources/lookupFunctions)";
  return plainTypesFile(
    root,
    GENERATED_FILE,
    source,
    [...types, ...LOOKUP_FUNCTIONS.flatMap(lookupTypes)],
    (name) => (computed.has(name) ? [computed.get(name)!] : []),
    byToken,
  );
}

/** What an SDK class is made of: its declaration's token, description, computed outputs and SDK behaviour. */
type Declared = Pick<Resource, "token" | "description" | "outputs" | "sdk">;

/** A doc comment of `text`, its lines wrapped at 120 characters. */
function jsDoc(text: string): string {
  const lines = text
    .replace(/\*\//g, "*\\/")
    .split(" ")
    .reduce<string[]>((wrapped, word) => {
      const last = wrapped.length - 1;
      if (last >= 0 && wrapped[last].length + word.length < 120) wrapped[last] += ` ${word}`;
      else wrapped.push(word);
      return wrapped;
    }, []);
  return lines.length === 1 ? `/** ${lines[0]} */` : ["/**", ...lines.map((l) => ` * ${l}`), " */"].join("\n");
}

function sdkClass({ token, description, outputs, sdk }: Declared): string {
  const onMachine = (type: string) => (sdk.onMachine ? `OnMachine<${type}>` : type);
  const computed = Object.keys(outputs).length ? [`Computed<T.${computedName(token)}>`] : [];
  return [
    `export type ${token}Args = Args<${onMachine(`T.${inName(token)}`)}>;`,
    "",
    jsDoc(description),
    `export class ${token} extends DeclaredResource {`,
    `  constructor(name: string, args: ${token}Args, opts?: pulumi.CustomResourceOptions) {`,
    `    super("${token}", name, args, opts);`,
    ...(sdk.ownsMachine ? ["    ownMachine(this, args);"] : []),
    ...(sdk.onMachine ? ["    onMachine(this, args);"] : []),
    "  }",
    "}",
    `export interface ${token} extends Outputs<${[onMachine(`T.${outName(token)}`), ...computed].join(" & ")}> {}`,
  ].join("\n");
}

/**
 * The SDK's file of classes, one per resource of `resourceList` in its order, with their Args and output types
 * and their declarations' descriptions as doc comments. What a class does besides sending its inputs is its
 * declaration's `sdk` behaviour, done by sdk/declaredResource.ts; here that behaviour only types the class
 * (hardware takes the branded machine key) and registers a machine's owner and its hardware.
 */
export function sdkClassesFile(resourceList: readonly Declared[]): string {
  return [
    "// Generated by scripts/gen-sdk-types.ts from the resource list (provider/resources/index.ts): do not edit.",
    "// Regenerate: npm run build && node dist/scripts/gen-sdk-types.js",
    `import * as pulumi from "@pulumi/pulumi";`,
    `import { DeclaredResource } from "./declaredResource";`,
    `import { onMachine, ownMachine } from "./machineOwners";`,
    `import type * as T from "./schemaTypes.generated";`,
    `import type { Args, Computed, OnMachine, Outputs } from "./types";`,
    "",
    resourceList.map(sdkClass).join("\n\n"),
    "",
  ].join("\n");
}

/** What an SDK look-up is made of: its declaration's name, description and usage. */
type DeclaredLookup = Pick<LookupFunction, "name" | "description" | "usage">;

function sdkLookup({ name, description, usage }: DeclaredLookup): string {
  return [
    jsDoc([description, usage].filter(Boolean).join(" ")),
    `export const ${name} = lookup<T.${lookupArgsName(name)}, T.${lookupResultName(name)}>("${name}");`,
    `/** ${name} taking outputs of other resources: it runs once they are known, on the site of \`{ provider }\` when given. */`,
    `export const ${name}Output = outputOf<T.${lookupArgsName(name)}, T.${lookupResultName(name)}>("${name}");`,
  ].join("\n");
}

/**
 * The SDK's file of look-ups, one function and its Output twin per declaration of `lookups` in its order, their
 * declarations' descriptions and usage as doc comments. What they do is sdk/programLookups.ts's.
 */
export function sdkLookupsFile(lookups: readonly DeclaredLookup[]): string {
  return [
    "// Generated by scripts/gen-sdk-types.ts from the look-ups (provider/resources/lookupFunctions.ts): do not edit.",
    "// Regenerate: npm run build && node dist/scripts/gen-sdk-types.js",
    `import { lookup, outputOf } from "./programLookups";`,
    `import type * as T from "./schemaTypes.generated";`,
    "",
    lookups.map(sdkLookup).join("\n\n"),
    "",
  ].join("\n");
}

/** How a generated file names the SDK's types where its own repeat them, and the import that brings them. */
interface SdkReuse {
  rewrite(node: ts.TypeNode): ts.TypeNode;
  imports(): string[];
}

/** The SDK's validated values of every resource (`VnetValues`...), as documented object types by name. */
function sdkValueTypes(root: string): Map<string, ts.TypeLiteralNode> {
  const list = schemaTargets(root).map(
    (t): PlainType => ({ name: outName(t.token), of: "output", schema: t.schema, module: t.module, exportName: t.exportName, doc: "" }),
  );
  const types = expandedTypes(root, list);
  return new Map(
    list.flatMap((t) => {
      const node = documented(types.get(t.name)!, t.schema);
      return ts.isTypeLiteralNode(node) ? [[t.name, node] as const] : [];
    }),
  );
}

/**
 * Names an SDK type wherever an object type repeats at least `MIN_SHARED` of its members word for word (type and doc):
 * the SDK type itself, `Omit<>` of the members it has beyond them, and an intersection with the members of its own.
 * The environment file's entries are the resources' own schemas, so their types stay the SDK's, docs included.
 */
function reusingSdkTypes(sdk: Map<string, ts.TypeLiteralNode>): SdkReuse {
  const MIN_SHARED = 3;
  const printer = ts.createPrinter({ newLine: ts.NewLineKind.LineFeed });
  const file = ts.createSourceFile("members.ts", "", ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const text = (m: ts.TypeElement) => printer.printNode(ts.EmitHint.Unspecified, m, file);
  const sdkMembers = [...sdk].map(([name, node]) => ({ name, members: new Map(node.members.map((m) => [memberName(m), text(m)])) }));
  const used = new Set<string>();
  const rewrite = (node: ts.TypeNode): ts.TypeNode => {
    if (ts.isArrayTypeNode(node)) return ts.factory.updateArrayTypeNode(node, rewrite(node.elementType));
    if (ts.isUnionTypeNode(node)) return ts.factory.updateUnionTypeNode(node, ts.factory.createNodeArray(node.types.map(rewrite)));
    if (!ts.isTypeLiteralNode(node)) return node;
    const sharedWith = (members: Map<string | undefined, string>) => node.members.filter((m) => members.get(memberName(m)) === text(m));
    const best = sdkMembers
      .map((candidate) => ({ ...candidate, shared: sharedWith(candidate.members) }))
      .sort((a, b) => b.shared.length - a.shared.length)[0];
    const own = (members: readonly ts.TypeElement[]) =>
      members.map((m) =>
        ts.isPropertySignature(m) && m.type
          ? ts.factory.updatePropertySignature(m, m.modifiers, m.name, m.questionToken, rewrite(m.type))
          : m,
      );
    if (!best || best.shared.length < MIN_SHARED)
      return ts.factory.updateTypeLiteralNode(node, ts.factory.createNodeArray(own(node.members)));
    used.add(best.name);
    const sharedNames = new Set(best.shared.map(memberName));
    const omitted = [...best.members.keys()].filter((name) => !sharedNames.has(name));
    const base = omitted.length
      ? ts.factory.createTypeReferenceNode("Omit", [
          ts.factory.createTypeReferenceNode(best.name),
          ts.factory.createUnionTypeNode(
            omitted.map((name) => ts.factory.createLiteralTypeNode(ts.factory.createStringLiteral(name ?? ""))),
          ),
        ])
      : ts.factory.createTypeReferenceNode(best.name);
    const rest = own(node.members.filter((m) => !best.shared.includes(m)));
    return rest.length ? ts.factory.createIntersectionTypeNode([base, ts.factory.createTypeLiteralNode(rest)]) : base;
  };
  return {
    rewrite,
    imports: () => (used.size ? [`import type { ${[...used].sort().join(", ")} } from "../sdk/schemaTypes.generated";`] : []),
  };
}

/**
 * The environment runner's file: an environment file as validated (what `loadEnvironment` returns and `buildEnvironment`
 * takes), written with the SDK's types wherever an entry is a resource's own (vnets, VMs, their drives...).
 */
export function environmentTypesFile(root: string): string {
  const { environmentSchema } = require(path.join(__dirname, "..", "env", "environment-schema")) as { environmentSchema: unknown };
  return plainTypesFile(
    root,
    ENVIRONMENT_TYPES_FILE,
    "the environment schema (env/environment-schema.ts)",
    [
      {
        name: "Environment",
        of: "output",
        schema: environmentSchema,
        module: "env/environment-schema",
        exportName: "environmentSchema",
        doc: "An environment file as validated: defaults applied, sizes in bytes, the stack's overlay merged.",
      },
    ],
    undefined,
    [],
    reusingSdkTypes(sdkValueTypes(root)),
  );
}

if (require.main === module) {
  const root = path.resolve(__dirname, "..", "..");
  let stale = false;
  const generated = [
    [GENERATED_FILE, sdkTypesFile(root)],
    [SDK_CLASSES_FILE, sdkClassesFile(RESOURCE_LIST)],
    [SDK_LOOKUPS_FILE, sdkLookupsFile(LOOKUP_FUNCTIONS)],
    [ENVIRONMENT_TYPES_FILE, environmentTypesFile(root)],
  ];
  for (const [target, text] of generated) {
    const file = path.join(root, target);
    if (fs.existsSync(file) && fs.readFileSync(file, "utf8") === text) continue;
    if (process.argv.includes("--check")) {
      console.error(`${target} is stale: run \`npm run build && node dist/scripts/gen-sdk-types.js\``);
      stale = true;
    } else {
      fs.writeFileSync(file, text);
      console.log(`wrote ${target}`);
    }
  }
  if (stale) process.exit(1);
}
