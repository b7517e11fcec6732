import { isCollection, isMap, isPair, isScalar, LineCounter, parseDocument, type Document } from "yaml";
import type { z } from "zod";
import { formatPath } from "../provider/schemas/common";
import { EnvironmentError, type EnvironmentProblem, type SourceLocation } from "./environment-error";

export interface YamlSource {
  file: string;
  value: unknown;
  /** Location of the node at `path`, or of its nearest existing ancestor (a missing key points at its parent). */
  locate(path: readonly PropertyKey[]): SourceLocation;
}

/** Rewrites the parsed document before validation; problems are reported at the node given. */
export type DocumentTransform = (doc: Document.Parsed, problem: (node: unknown, path: string, message: string) => void) => void;

/** Parses YAML keeping node positions; syntax errors become an EnvironmentError. */
export function parseYamlSource(text: string, file: string, transform?: DocumentTransform): YamlSource {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const at = (offset: number): SourceLocation => {
    const { line, col } = lineCounter.linePos(offset);
    return { file, line, col };
  };
  if (doc.errors.length > 0) {
    throw new EnvironmentError(
      doc.errors.map((e) => {
        const key = e.code === "DUPLICATE_KEY" ? keyPathAt(doc.contents, e.pos[0], []) : undefined;
        return key
          ? {
              location: at(e.pos[0]),
              path: formatPath(key),
              message: `'${String(key[key.length - 1])}' appears twice in this mapping; keys must be unique — rename or merge one`,
            }
          : { location: at(e.pos[0]), path: "", message: e.message.split("\n")[0] };
      }),
    );
  }
  if (transform) {
    const problems: EnvironmentProblem[] = [];
    transform(doc, (node, path, message) => {
      const range = (node as { range?: [number, number, number] } | null)?.range;
      problems.push({ location: at(range ? range[0] : 0), path, message });
    });
    if (problems.length > 0) throw new EnvironmentError(problems);
  }
  return {
    file,
    value: doc.toJS(),
    locate(path) {
      let node: unknown = doc.contents;
      let offset = 0;
      for (const seg of path) {
        const range = (node as { range?: [number, number, number] } | null)?.range;
        if (range) offset = range[0];
        if (!isCollection(node)) return at(offset);
        node = node.get(seg as string | number, true);
        if (node === undefined) return at(offset);
      }
      const range = (node as { range?: [number, number, number] } | null)?.range;
      return at(range ? range[0] : offset);
    },
  };
}

/** The path of the mapping key that starts at `offset`, if any. */
function keyPathAt(node: unknown, offset: number, path: PropertyKey[]): PropertyKey[] | undefined {
  if (!isCollection(node)) return undefined;
  for (const [i, item] of node.items.entries()) {
    const key = isPair(item) && isScalar(item.key) ? (item.key.value as PropertyKey) : i;
    if (isMap(node) && isPair(item) && isScalar(item.key) && item.key.range?.[0] === offset) return [...path, key];
    const found = keyPathAt(isPair(item) ? item.value : item, offset, [...path, key]);
    if (found) return found;
  }
  return undefined;
}

/** Validates a parsed YAML source with a zod schema; issues are reported at their line and column. */
export function validateYamlSource<T extends z.ZodType>(source: YamlSource, schema: T): z.output<T> {
  const result = schema.safeParse(source.value);
  if (result.success) return result.data;
  throw new EnvironmentError(
    result.error.issues.map((issue) => ({
      location: source.locate(issue.path),
      path: formatPath(issue.path),
      message: issue.message,
    })),
  );
}
