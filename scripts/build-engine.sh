#!/usr/bin/env bash
# Builds the Pulumi CLI (and our Node.js language host) from Go modules into OUT/bin.
# usage: build-engine.sh VERSION OUT
set -euo pipefail
VERSION="$1"; OUT="$2"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
export GOFLAGS=-mod=mod GOTOOLCHAIN="${GOTOOLCHAIN:-auto}"
mkdir -p "$OUT/bin"
LDFLAGS="-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$VERSION"
(cd "$ROOT/tools/pulumi" && go build -trimpath -tags osusergo,grpcnotrace -ldflags "$LDFLAGS" -o "$OUT/bin/" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi)
if [ -f "$ROOT/tools/pulumi-language-nodejs/go.mod" ]; then
  (cd "$ROOT/tools/pulumi-language-nodejs" && go build -trimpath -ldflags "-s -w" -o "$OUT/bin/pulumi-language-nodejs" .)
fi
"$OUT/bin/pulumi" version
