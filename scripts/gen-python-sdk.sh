#!/usr/bin/env bash
# The plugin's Python SDK (pulumi_vplatform), generated from schema.json by Pulumi's Python code generator
# (tools/gen-sdk: the Python language host, whose GeneratePackage `pulumi package gen-sdk --language python`
# calls, is not on the module proxy) into sdk-python/, committed (`pip install "git+<repo>#subdirectory=sdk-python"`
# builds it), and built into a wheel and an sdist by scripts/build-python-sdk.sh.
#   scripts/gen-python-sdk.sh [--check]      --check: fail when sdk-python/ differs from what schema.json makes
set -euo pipefail
cd "$(dirname "$0")/.."
check=false
if [ "${1:-}" = "--check" ]; then check=true; fi
export VPLATFORM_SETUP="${VPLATFORM_SETUP:-main}" # what building needs, not the tests' tools and SDKs
source scripts/env.sh
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
"$(build_cached gen-sdk "$PWD/tools/gen-sdk")" python schema.json "$out" "$(node -p 'require("./package.json").version')"
cp "$out/pulumi_vplatform/README.md" "$out/README.md" # the project's readme (pyproject.toml)
if $check; then
  diff -r sdk-python "$out" >&2 || { echo "sdk-python/ is stale: run scripts/gen-python-sdk.sh" >&2; exit 1; }
  exit 0
fi
rm -rf sdk-python && cp -r "$out" sdk-python
