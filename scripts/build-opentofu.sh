#!/usr/bin/env bash
# Builds what the bench's OpenTofu side (bench/fixedCost/opentofu.ts) runs, once; a second run skips what is built.
# Not run by CI: the bench runs that side only when both are there.
#   1. OpenTofu 1.8.8's CLI (cmd/tofu), from Go modules through the Go module proxy (the wrapper module
#      tools/opentofu pins it, go.sum included), into $VPLATFORM_CACHE/opentofu/tofu.
#   2. The maker's Terraform provider (github.com/verge-io/terraform-provider-vergeio), into
#      $VPLATFORM_CACHE/terraform-provider-vergeio/. The module proxy does not serve it (its go.mod names the module
#      `terraform-provider-vergeio`, not its repository's path), so it is built from a clone of that repository given
#      as VERGEIO_PROVIDER_SRC (a work tree or a bare clone): its newest v* tag, with the dependencies it vendors, so
#      nothing is downloaded. The tag is written beside the binary (VERSION).
# usage: [VERGEIO_PROVIDER_SRC=<clone>] scripts/build-opentofu.sh
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE="${VPLATFORM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/vplatform}"
TOFU_DIR="$CACHE/opentofu"
PROVIDER_DIR="$CACHE/terraform-provider-vergeio"
export GOFLAGS=-mod=mod GOTOOLCHAIN="${GOTOOLCHAIN:-auto}"
log() { printf '[build-opentofu] %s\n' "$*" >&2; }

build_tofu() {
  if [ -x "$TOFU_DIR/tofu" ]; then log "tofu is built: $TOFU_DIR/tofu"; return; fi
  log "building OpenTofu from Go modules (a few minutes)"
  rm -rf "$TOFU_DIR.tmp" && mkdir -p "$TOFU_DIR.tmp"
  # version.dev=no: the release's version string (1.8.8, not 1.8.8-dev), as OpenTofu's own release build sets it.
  (cd "$ROOT/tools/opentofu" && go build -trimpath -ldflags "-s -w -X github.com/opentofu/opentofu/version.dev=no" \
    -o "$TOFU_DIR.tmp/tofu" github.com/opentofu/opentofu/cmd/tofu)
  rm -rf "$TOFU_DIR" && mv "$TOFU_DIR.tmp" "$TOFU_DIR"
  TF_CLI_CONFIG_FILE=/dev/null "$TOFU_DIR/tofu" version >&2
}

build_provider() {
  if [ -x "$PROVIDER_DIR/terraform-provider-vergeio" ]; then
    log "the provider is built: $PROVIDER_DIR/terraform-provider-vergeio ($(cat "$PROVIDER_DIR/VERSION"))"
    return
  fi
  local src="${VERGEIO_PROVIDER_SRC:-}"
  if [ -z "$src" ] || ! git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
    log "VERGEIO_PROVIDER_SRC must name a clone of github.com/verge-io/terraform-provider-vergeio (got '${src}'):"
    log "the Go module proxy does not serve that provider, so it is built from its source"
    return 1
  fi
  local tag work
  tag="$(git -C "$src" tag --list 'v*' --sort=-v:refname | head -n 1)"
  [ -n "$tag" ] || { log "$src has no v* tag: fetch the repository's tags"; return 1; }
  log "building the maker's provider $tag from $src (its vendored dependencies)"
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' RETURN
  git -C "$src" archive "$tag" | tar -x -C "$work"
  rm -rf "$PROVIDER_DIR.tmp" && mkdir -p "$PROVIDER_DIR.tmp"
  (cd "$work" && GOFLAGS=-mod=vendor go build -trimpath -ldflags "-s -w" -o "$PROVIDER_DIR.tmp/terraform-provider-vergeio" .)
  echo "$tag" > "$PROVIDER_DIR.tmp/VERSION"
  rm -rf "$PROVIDER_DIR" && mv "$PROVIDER_DIR.tmp" "$PROVIDER_DIR"
}

build_tofu
build_provider
