// The fenced code blocks of the Markdown pages users copy from: checked without the engine by
// scripts/markdownSnippets.test.ts, run against the emulator by test/e2e/docSnippets.test.ts.
/**
 * A fenced code block: its language and flags (the fence's info words), its text de-indented (as a reader copies it),
 * and where that text is in the Markdown file: the line of its first line and the indent taken off.
 */
export interface Block {
  file: string;
  line: number;
  indent: string;
  lang: string;
  flags: string[];
  text: string;
}

/** The fenced code blocks of a Markdown text, outermost only (a fence inside a longer fence is text), in order. */
export function fencedBlocks(file: string, markdown: string): Block[] {
  const lines = markdown.split("\n");
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^( *)(`{3,}|~{3,})\s*([^`\s]*)(.*)$/.exec(lines[i]);
    if (!open) continue;
    const [, indent, fence, lang, rest] = open;
    const close = new RegExp(`^ *${fence[0]}{${fence.length},}\\s*$`);
    let end = i + 1;
    while (end < lines.length && !close.test(lines[end])) end++;
    const body = lines.slice(i + 1, end).map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l.trimStart()));
    blocks.push({
      file,
      line: i + 2,
      indent,
      lang: lang.toLowerCase(),
      flags: rest.trim().split(/\s+/).filter(Boolean),
      text: body.join("\n"),
    });
    i = end;
  }
  return blocks;
}
