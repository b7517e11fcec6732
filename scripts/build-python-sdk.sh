#!/usr/bin/env bash
# Builds sdk-python/ (scripts/gen-python-sdk.sh) into a wheel and an sdist in OUT_DIR (default .tools/python-dist):
# pulumi_vplatform-<version>-py3-none-any.whl and pulumi_vplatform-<version>.tar.gz; prints the wheel's path.
#   scripts/build-python-sdk.sh [OUT_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
export VPLATFORM_SETUP="${VPLATFORM_SETUP:-main}" # what building needs, not the tests' tools and SDKs
source scripts/env.sh
OUT="$(mkdir -p "${1:-.tools/python-dist}" && cd "${1:-.tools/python-dist}" && pwd)"
src="$(mktemp -d)"
trap 'rm -rf "$src"' EXIT
cp -r sdk-python/. "$src" # setuptools writes build/ and *.egg-info beside the sources
# No build isolation: setuptools comes from the set-up's tools virtualenv, not from PyPI at each build.
"$VPLATFORM_PYTHON_TOOLS/bin/python" -m build --no-isolation --sdist --wheel "$src" -o "$OUT" >&2
ls "$OUT"/pulumi_vplatform-"$(node -p 'require("./package.json").version')"-py3-none-any.whl
