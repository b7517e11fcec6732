// The README is a front page and docs/index.md the way into everything else: the README stays short
// enough to read through, and no page of docs/ is left that the index does not link.
import * as fs from "node:fs";
import * as path from "node:path";

const root = path.join(__dirname, "..");
const docs = path.join(root, "docs");

/** Every Markdown file below docs/, as a path relative to docs/. */
const pages = (fs.readdirSync(docs, { recursive: true }) as string[])
  .filter((f) => f.endsWith(".md"))
  .map((f) => f.split(path.sep).join("/"));

/** The files an index's inline links name, relative to its folder (anchors dropped). */
const linkedFiles = (markdown: string) =>
  new Set([...markdown.matchAll(/\]\(([^)#\s]+)(?:#[^)\s]*)?\)/g)].map((m) => path.posix.normalize(m[1])));

describe("the README is a front page", () => {
  test("README.md has at most 300 lines (the rest belongs in docs/, linked from docs/index.md)", () => {
    const lines = fs.readFileSync(path.join(root, "README.md"), "utf8").trimEnd().split("\n").length;
    expect(lines).toBeLessThanOrEqual(300);
  });
  test("README.md links docs/index.md", () => {
    expect(linkedFiles(fs.readFileSync(path.join(root, "README.md"), "utf8"))).toContain("docs/index.md");
  });
});

describe("docs/index.md links every page of docs/", () => {
  const linked = linkedFiles(fs.readFileSync(path.join(docs, "index.md"), "utf8"));
  test("the pages are found (sanity: the index, a guide, the generated reference)", () => {
    expect(pages).toEqual(expect.arrayContaining(["index.md", "guides/typescript.md", "resources.md"]));
  });
  test.each(pages.filter((p) => p !== "index.md"))("%s", (page) => expect(linked).toContain(page));
});
