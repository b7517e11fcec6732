// examples/gitops installs the tarball a user packs, as its README says: `npm pack` in this repository, the
// tarball copied to the example's vendor/, `npm install`; and a runner's `npm ci` installs another build of
// it. The committed lock used to pin one tarball's hash, so npm refused every other one (EINTEGRITY).
// The dependencies come from the npm cache (--prefer-offline: the network only for a package the cache lacks).
import { execFileSync } from "node:child_process";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as zlib from "node:zlib";

const repoRoot = path.resolve(__dirname, "../..");
const example = path.join(repoRoot, "examples", "gitops");

const npm = (args: string[], cwd: string) =>
  execFileSync("npm", [...args, "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"], {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
const sha512 = (file: string) => `sha512-${crypto.createHash("sha512").update(fs.readFileSync(file)).digest("base64")}`;

let work: string;
let repo: string;
/** Where the example's package.json takes vplatform from (vendor/vplatform-<version>.tgz). */
let vendored: string;
let packed: string;

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "gitops-install-"));
  // dist/ is built (the e2e tests run on dist/); --ignore-scripts skips the prepack build of it.
  const [{ filename }] = JSON.parse(
    execFileSync("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", work], { cwd: repoRoot, encoding: "utf8" }),
  );
  packed = path.join(work, filename);
  repo = path.join(work, "shop-environments");
  fs.cpSync(example, repo, { recursive: true, filter: (src) => !src.includes(`${path.sep}node_modules`) });
  const spec: string = JSON.parse(fs.readFileSync(path.join(repo, "package.json"), "utf8")).dependencies.vplatform;
  vendored = path.join(repo, spec.replace(/^file:/, ""));
}, 120_000);

afterAll(() => {
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

const installedVersion = () => JSON.parse(fs.readFileSync(path.join(repo, "node_modules", "vplatform", "package.json"), "utf8")).version;
const repoVersion = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")).version;

describe("examples/gitops installs whichever vplatform tarball is in vendor/", () => {
  test("a tarball packed from this repository: `npm install` installs it and leaves the committed lock as it was", () => {
    fs.mkdirSync(path.dirname(vendored), { recursive: true });
    fs.copyFileSync(packed, vendored);
    const lockBefore = fs.readFileSync(path.join(repo, "package-lock.json"), "utf8");
    npm(["install"], repo);
    expect(installedVersion()).toBe(repoVersion);
    expect(fs.readFileSync(path.join(repo, "package-lock.json"), "utf8")).toBe(lockBefore);
  }, 300_000);

  test("another build of the same release (other bytes, other hash): a runner's `npm ci` installs it", () => {
    const before = sha512(vendored);
    // The same files compressed anew: what packing the release again on another machine gives.
    fs.writeFileSync(vendored, zlib.gzipSync(zlib.gunzipSync(fs.readFileSync(vendored)), { level: 1 }));
    expect(sha512(vendored)).not.toBe(before);
    fs.rmSync(path.join(repo, "node_modules"), { recursive: true, force: true });
    npm(["ci"], repo);
    expect(installedVersion()).toBe(repoVersion);
    expect(fs.existsSync(path.join(repo, "node_modules", ".bin", "vplatform"))).toBe(true);
  }, 300_000);
});
