// Dynamic-provider shims require("vplatform/provider/...") at call time from the
// program directory. A user's install has node_modules/vplatform; inside this
// repository (examples, tests) the build makes this link instead. Not an install
// step of the package: only the repository's own build runs it.
const fs = require("fs");
const path = require("path");
const link = path.join(__dirname, "..", "node_modules", "vplatform");
try {
  if (fs.readlinkSync(link) === "..") process.exit(0);
  fs.unlinkSync(link);
} catch {}
fs.mkdirSync(path.dirname(link), { recursive: true });
fs.symlinkSync("..", link, "dir");
