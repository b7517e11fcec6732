#!/usr/bin/env bash
# Generates the SDK of the resource plugin pulumi-resource-vplatform from schema.json with Pulumi's own
# code generators, then compiles it (the check that the schema makes a valid SDK).
#   scripts/gen-sdk.sh [--go] [OUT_DIR]      (default .tools/sdk; also `npm run gen-sdk`)
# Node.js: `pulumi package gen-sdk --language nodejs` (our language host's GeneratePackage), compiled by
# tsc into OUT_DIR/nodejs/bin, a package directory (package.json, .js, .d.ts) a program can depend on.
# --go: also the Go SDK into OUT_DIR/go (tools/gen-sdk: the Go language host is not on the module
# proxy), compiled with `go build`; its first run downloads and compiles the Go SDK's dependencies.
set -euo pipefail
cd "$(dirname "$0")/.."
with_go=false
if [ "${1:-}" = "--go" ]; then with_go=true; shift; fi
export VPLATFORM_SETUP="${VPLATFORM_SETUP:-main}" # what building needs, not the tests' tools and SDKs
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

if $with_go; then
  rm -rf "$OUT/go" && mkdir -p "$OUT/go"
  "$(build_cached gen-sdk "$PWD/tools/gen-sdk")" go schema.json "$OUT/go" "$VERSION"
  # A module around the generated package, on the engine's release of the Go SDK (and its replaces).
  module="$(sed -n 's|^\t"\(.*\)/vplatform/internal"$|\1|p' "$OUT/go/vplatform/provider.go" | head -1)"
  { echo "module $module"; echo; echo "go 1.25.11"; echo; echo "require github.com/pulumi/pulumi/sdk/v3 v$PULUMI_VERSION"
    grep '^replace' tools/pulumi-language-nodejs/go.mod | grep -v ' => \.'; } > "$OUT/go/go.mod" # not its local ones
  cp tools/pulumi-language-nodejs/go.sum "$OUT/go/go.sum"
  (cd "$OUT/go" && GOFLAGS=-mod=mod go build -trimpath -tags osusergo,grpcnotrace ./... && GOFLAGS=-mod=mod go vet ./...) >&2
fi
echo "$OUT/nodejs/bin"
