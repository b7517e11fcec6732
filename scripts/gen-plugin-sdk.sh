#!/usr/bin/env bash
# The plugin's Node.js SDK that the package ships as `vplatform/plugin-sdk`, for programs whose resources the
# plugin serves (the code `pulumi import` prints is on `vplatform`, the dynamic SDK). Generated from schema.json by
# scripts/gen-sdk.sh (Pulumi's own generator) into plugin-sdk/, committed; `npm run build` compiles it with
# tsconfig.plugin-sdk.json into dist/plugin-sdk (no engine needed to build or pack).
#   scripts/gen-plugin-sdk.sh [--check]      --check: fail when plugin-sdk/ differs from what schema.json makes
set -euo pipefail
cd "$(dirname "$0")/.."
check=false
if [ "${1:-}" = "--check" ]; then check=true; fi
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
bash scripts/gen-sdk.sh "$out/gen" >/dev/null
mkdir "$out/plugin-sdk"
(cd "$out/gen/nodejs" && find . -name '*.ts' -not -path './bin/*' -not -path './node_modules/*' -exec cp --parents {} "$out/plugin-sdk/" \;)
# utilities.getVersion() reads ./package.json: the plugin version the engine runs its resources with. Only that:
# with the generator's `pulumi.resource`, a Node.js host would list a plugin for the engine to download.
node -e 'const v = require(process.argv[1]).version; console.log(JSON.stringify({ private: true, version: v }, null, 2))' \
  "$out/gen/nodejs/package.json" > "$out/plugin-sdk/package.json"
if $check; then
  diff -r plugin-sdk "$out/plugin-sdk" >&2 || { echo "plugin-sdk/ is stale: run scripts/gen-plugin-sdk.sh" >&2; exit 1; }
  exit 0
fi
rm -rf plugin-sdk && cp -r "$out/plugin-sdk" plugin-sdk
