#!/usr/bin/env bash
# Builds one Go program of the Pulumi engine from Go modules.
# usage: build-engine.sh NAME PULUMI_VERSION SRC_DIR OUT_FILE
#   NAME=pulumi                  the CLI, from the wrapper module tools/pulumi
#   NAME=pulumi-language-nodejs  our Node.js language host (tools/pulumi-language-nodejs)
#   NAME=pulumi-language-yaml    the Pulumi YAML language host, from the wrapper module tools/pulumi-language-yaml
set -euo pipefail
NAME="$1"; VERSION="$2"; SRC="$3"; OUT="$4"
export GOFLAGS=-mod=mod GOTOOLCHAIN="${GOTOOLCHAIN:-auto}"
# One set of flags for every program: Go's build cache then compiles the packages they share once
# (build tags change the files of os/user and grpc, hence the cache keys of everything above them).
BUILD_FLAGS=(-trimpath -tags osusergo,grpcnotrace)
cd "$SRC"
case "$NAME" in
  pulumi)
    # -X version: the Automation API checks the CLI's version.
    go build "${BUILD_FLAGS[@]}" \
      -ldflags "-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$VERSION" \
      -o "$OUT" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi
    "$OUT" version ;;
  pulumi-language-yaml)
    yaml_version="$(go list -m -f '{{.Version}}' github.com/pulumi/pulumi-yaml)"
    go build "${BUILD_FLAGS[@]}" -ldflags "-s -w -X github.com/pulumi/pulumi-yaml/pkg/version.Version=${yaml_version#v}" \
      -o "$OUT" github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml ;;
  *)
    go build "${BUILD_FLAGS[@]}" -ldflags "-s -w" -o "$OUT" . ;;
esac
