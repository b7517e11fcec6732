// The Node.js the plugin runs on. A Python or Go program's engine runs the plugin directory with whatever `node` is
// first on PATH (its PulumiPlugin.yaml says runtime nodejs), so an unsupported one is refused at once, naming what
// to install, instead of failing later in a way that names nothing (on Node 18: require() of an ES module).

type Version = [number, number, number];

const parse = (text: string): Version => {
  const [major = 0, minor = 0, patch = 0] = text.replace(/^v/, "").split(".").map(Number);
  return [major, minor, patch];
};
const atLeast = (v: Version, min: Version) => v[0] - min[0] || v[1] - min[1] || v[2] - min[2];

/** One term of package.json's engines.node (`^22.12.0`, `>=24`): whether it admits `v`, and how a person says it. */
function term(text: string): { admits(v: Version): boolean; said: string } {
  const caret = /^\^(\d+(?:\.\d+){0,2})$/.exec(text);
  if (caret) {
    const min = parse(caret[1]);
    return { admits: (v) => v[0] === min[0] && atLeast(v, min) >= 0, said: `${min[0]}.${min[1]} or a later ${min[0]}.x` };
  }
  const from = /^>=\s*(\d+(?:\.\d+){0,2})$/.exec(text);
  if (from) {
    const min = parse(from[1]);
    return { admits: (v) => atLeast(v, min) >= 0, said: `${from[1]} or later` };
  }
  throw new Error(`vplatform: engines.node term '${text}' is neither ^X.Y.Z nor >=X (package.json)`);
}

/**
 * Why Node.js `version` cannot run the plugin, or undefined when it can. `range`: package.json's engines.node
 * (terms `^X.Y.Z` or `>=X` joined by `||`); `node`: the executable, named in the refusal.
 */
export function nodeRefusal(version: string, range: string, node: string): string | undefined {
  const terms = range.split("||").map((t) => term(t.trim()));
  if (terms.some((t) => t.admits(parse(version)))) return undefined;
  return (
    `vplatform: the resource plugin needs Node.js ${terms.map((t) => t.said).join(", or ")}; this is Node.js ${version} ` +
    `(${node}). Install Node.js 22 LTS or 24 LTS (https://nodejs.org) first on PATH: the engine runs the plugin ` +
    `directory with the first \`node\` there, whatever your program's language (package.json engines: ${range}).`
  );
}
