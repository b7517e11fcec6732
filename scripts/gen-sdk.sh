#!/usr/bin/env bash
# Generates the SDK of the resource plugin pulumi-resource-vplatform from schema.json with Pulumi's own
# code generators, then compiles it (the check that the schema makes a valid SDK).
#   scripts/gen-sdk.sh [OUT_DIR]      (default .tools/sdk; also `npm run gen-sdk`)
# Node.js: `pulumi package gen-sdk --language nodejs` (our language host's GeneratePackage), compiled by
# tsc into OUT_DIR/nodejs/bin, a package directory (package.json, .js, .d.ts) a program can depend on.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
OUT="$(mkdir -p "${1:-.tools/sdk}" && cd "${1:-.tools/sdk}" && pwd)"
VERSION="$(node -p 'require("./package.json").version')"

pulumi package gen-sdk schema.json --language nodejs --version "$VERSION" --out "$OUT" >&2
# Compiled against this repository's @pulumi/pulumi, @types/node and TypeScript, wherever OUT is.
ln -sfn "$PWD/node_modules" "$OUT/nodejs/node_modules"
(cd "$OUT/nodejs" && node_modules/.bin/tsc -p tsconfig.json)
rm "$OUT/nodejs/node_modules"
# The generator leaves the npm version as ${VERSION} unless the schema says respectSchemaVersion.
sed -i "s/\${VERSION}/$VERSION/" "$OUT/nodejs/package.json"
cp "$OUT/nodejs/package.json" "$OUT/nodejs/README.md" "$OUT/nodejs/bin/"
echo "$OUT/nodejs/bin"
