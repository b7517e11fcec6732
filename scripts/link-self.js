// Dynamic-provider shims require("vplatform/dist/...") at call time from the
// program directory; inside this repository that resolves through this link.
const fs = require("fs");
const path = require("path");
const link = path.join(__dirname, "..", "node_modules", "vplatform");
try {
  if (fs.readlinkSync(link) === "..") process.exit(0);
  fs.unlinkSync(link);
} catch {}
fs.mkdirSync(path.dirname(link), { recursive: true });
fs.symlinkSync("..", link, "dir");
