// Relative links in the Markdown files resolve where the files are read: every file of the
// repository within the repository (nothing outside it, such as a sibling checkout), and every file
// the npm tarball ships within the tarball (what a user reads in node_modules/vplatform).
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

const root = path.join(__dirname, "..");

/** The text outside fenced code blocks. */
const unfenced = (markdown: string) => markdown.replace(/^ {0,3}(`{3,}|~{3,})[^\n]*\n[\s\S]*?(^ {0,3}\1[^\n]*$|(?![\s\S]))/gm, "");

/** The text outside code blocks and inline code spans: a link there is only an example. */
const prose = (markdown: string) => unfenced(markdown).replace(/(`+)[\s\S]*?\1/g, "");

/** The targets of inline links and images, reference definitions and HTML href/src attributes. */
function linkTargets(markdown: string): string[] {
  const text = prose(markdown);
  const patterns = [
    /!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g,
    /^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm,
    /\b(?:href|src)="([^"]+)"/g,
  ];
  return patterns.flatMap((p) => [...text.matchAll(p)].map((m) => m[1]));
}

/** Targets within the document set: no scheme (https:, mailto:), not protocol-relative. */
const isRelative = (target: string) => !/^([a-z][a-z\d+.-]*:|\/\/)/i.test(target);

/** The anchors GitHub gives a document's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function headingAnchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading] of unfenced(markdown).matchAll(/^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/gm)) {
    const base = heading
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M}\p{Pc}\- ]/gu, "")
      .replace(/ /g, "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** A set of files by their paths relative to a root ("docs/x.md"), and of the folders holding them. */
interface Files {
  has(file: string): boolean;
  read(file: string): string;
}

/** The relative links of `file` (a path in `files`) that name no file or folder of `files`, or no heading of the Markdown file they name. */
function brokenLinks(file: string, files: Files): string[] {
  return linkTargets(files.read(file))
    .filter(isRelative)
    .filter((target) => {
      const [, pathPart, anchor] = /^([^#?]*)(?:\?[^#]*)?(?:#(.*))?$/.exec(target)!;
      const resolved = pathPart
        ? path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURI(pathPart))).replace(/\/$/, "")
        : file;
      if (resolved.startsWith("../") || !files.has(resolved)) return true;
      return anchor !== undefined && resolved.endsWith(".md") && !headingAnchors(files.read(resolved)).has(anchor);
    });
}

/** Files below the root from a list of their paths; a folder is had when a listed file lies in it. */
function filesOf(list: string[]): Files {
  const folders = list.flatMap((f) => {
    const parts = f.split("/");
    return parts.slice(1).map((_, i) => parts.slice(0, i + 1).join("/"));
  });
  const listed = new Set([...list, ...folders, "."]);
  return { has: (f) => listed.has(f), read: (f) => fs.readFileSync(path.join(root, f), "utf8") };
}

/** The repository's files: tracked, or new and not ignored. */
const repository = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], { cwd: root, encoding: "utf8" })
  .split("\n")
  .filter((f) => f && fs.existsSync(path.join(root, f)));

/** The npm tarball's files, as `npm pack` lists them (without its prepack build: the Markdown files are not built). */
function tarball(): string[] {
  const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
    cwd: root,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
  });
  return (JSON.parse(out) as { files: { path: string }[] }[])[0].files.map((f) => f.path);
}

const isMarkdown = (f: string) => f.endsWith(".md");

describe("link extraction", () => {
  const doc = [
    "# Title: the `x` part",
    'See [a](docs/a.md#title-the-x-part), ![img](img/b.png "B") and [ref][r].',
    "[r]: <other/c.md>",
    '<img src="d.svg"> and [site](https://example.com) and `[e](not/a/link.md)`.',
    "```md",
    "[f](in/a/fence.md)",
    "# Not a heading",
    "```",
    "## Title: the x part",
  ].join("\n");
  test("finds inline links, images, reference definitions and HTML sources outside code", () => {
    expect(linkTargets(doc)).toEqual(["docs/a.md#title-the-x-part", "img/b.png", "https://example.com", "other/c.md", "d.svg"]);
  });
  test("gives headings GitHub's anchors, numbering repeats, ignoring fenced code", () => {
    expect([...headingAnchors(doc)]).toEqual(["title-the-x-part", "title-the-x-part-1"]);
  });
  test("reports a link that leaves the root, names no file, or names no heading of its Markdown file", () => {
    const texts: Record<string, string> = {
      "a/README.md": "[up](../b.md) [out](../../shared/x.md) [gone](c.md) [dir](.) [bad](../b.md#nope) [good](../b.md#b) [self](#a)",
      "b.md": "# B",
    };
    const files: Files = { has: (f) => f in texts || f === "a", read: (f) => texts[f] ?? "" };
    expect(brokenLinks("a/README.md", files)).toEqual(["../../shared/x.md", "c.md", "../b.md#nope", "#a"]);
  });
});

describe("every relative link of a Markdown file in the repository resolves to a file of the repository", () => {
  const files = filesOf(repository);
  test.each(repository.filter(isMarkdown))("%s", (file) => expect(brokenLinks(file, files)).toEqual([]));
});

describe("every relative link of a Markdown file in the npm tarball resolves to a file in the tarball", () => {
  const shipped = tarball();
  const files = filesOf(shipped);
  test("the tarball's Markdown is found (sanity: the README and the emulator's)", () => {
    expect(shipped.filter(isMarkdown)).toEqual(expect.arrayContaining(["README.md", "emulator/README.md"]));
  });
  test.each(shipped.filter(isMarkdown))("%s", (file) => expect(brokenLinks(file, files)).toEqual([]));
});
