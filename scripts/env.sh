# Sourced by ./dev: makes this machine ready to build, test and run the project.
# Installs nothing system-wide; everything is cached under $VPLATFORM_CACHE so a
# second set-up is instant.
# Strict while it runs; sourced into an interactive shell (`source scripts/env.sh`), the shell's own options
# come back at the end, so a later failing command does not close the terminal.
# (errexit is read from $-: a command substitution runs without it.)
VPLATFORM_CALLER_SHELL_OPTIONS="$(shopt -po nounset pipefail || true)"
[[ $- == *e* ]] || VPLATFORM_CALLER_SHELL_OPTIONS+=$'\nset +e'
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export VPLATFORM_CACHE="${VPLATFORM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/vplatform}"
NODE_MAJOR=24
NODE_MIN_MINOR=9   # jest's require(esm) support (got is ESM-only) needs 24.9+
PULUMI_VERSION="$(sed -n 's/.*"@pulumi\/pulumi": "\([0-9.]*\)".*/\1/p' "$ROOT/package.json")"

log() { printf '[setup] %s\n' "$*" >&2; }
source "$ROOT/scripts/setup-step.sh" # step: one line per set-up step, the tools' output in a log

# What to set up: all (./dev test, CI, a shell that sources this file), build (scripts that make the SDKs: the
# main job's needs and the Python SDK's build tools), main (./dev lab, emulator, bench: Node, the npm packages and
# the engine; nothing from PyPI or apt, no second Node, no SDK).
SETUP="${VPLATFORM_SETUP:-all}"

node_fits() {
  command -v node >/dev/null 2>&1 || return 1
  node -e "const [M,m]=process.versions.node.split('.').map(Number); process.exit(M>$NODE_MAJOR||(M===$NODE_MAJOR&&m>=$NODE_MIN_MINOR)?0:1)"
}

ensure_node() {
  local dir="$VPLATFORM_CACHE/node$NODE_MAJOR"
  [ -x "$dir/node_modules/node/bin/node" ] && export PATH="$dir/node_modules/node/bin:$PATH"
  node_fits && return 0
  mkdir -p "$dir"
  step "installing Node $NODE_MAJOR from the npm registry's node package into $dir" \
    npm install --prefix "$dir" --no-save --loglevel=error "node@$NODE_MAJOR"
  export PATH="$dir/node_modules/node/bin:$PATH"
  node_fits || { log "Node $NODE_MAJOR.$NODE_MIN_MINOR+ is required; got $(node --version)"; exit 1; }
}

# Other Node majors beside it, by the variable that names their binary: 22 (the other supported LTS) for the
# package test (test/e2e/package.test.ts), 20 (unsupported) for the test that npm ci refuses it at once.
ensure_other_node() {
  local major="$1" var="$2" dir="$VPLATFORM_CACHE/node$1"
  if [ ! -x "$dir/node_modules/node/bin/node" ]; then
    mkdir -p "$dir"
    step "installing Node $major from the npm registry's node package into $dir (tests)" \
      npm install --prefix "$dir" --no-save --loglevel=error "node@$major"
  fi
  export "$var=$dir/node_modules/node/bin/node"
}

ensure_npm_packages() {
  local stamp="$ROOT/node_modules/.vplatform-lock-hash"
  local want
  want="$( (cat "$ROOT/package.json"; cat "$ROOT/package-lock.json" 2>/dev/null; node --version) | sha1sum | cut -d' ' -f1)"
  if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    # npm ci: exactly the lock file (fails if package.json and the lock disagree: run `npm install` and commit the lock).
    step "installing npm packages (npm ci)" bash -c 'cd "$1" && npm ci --no-audit --no-fund --loglevel=error' npm-ci "$ROOT"
    echo "$want" > "$stamp"
  fi
}

# The Pulumi engine: the CLI built from Go modules (tools/pulumi), our Node.js
# language host (tools/pulumi-language-nodejs: the upstream one is not obtainable
# from the module proxy), our Python and Go ones (tools/pulumi-language-python, tools/pulumi-language-go, the same reason), the Pulumi YAML
# language host (tools/pulumi-language-yaml)
# and the dynamic-provider launcher from @pulumi/pulumi.
# Each Go build is cached under $VPLATFORM_CACHE by a hash of its sources.
build_cached() { # name srcdir -> prints the cached binary path
  local name="$1" src="$2" hash dir sources=("$2") dep
  # A module its go.mod replaces with a directory beside it (tools/languagehost) is part of its sources.
  for dep in $(sed -n 's|^replace [^ ]* => \(\.\./[^ ]*\)$|\1|p' "$src/go.mod"); do sources+=("$src/$dep"); done
  hash="$( (for dep in "${sources[@]}"; do cat "$dep"/go.mod "$dep"/go.sum "$dep"/*.go "$dep"/*.py 2>/dev/null; done
    echo "$PULUMI_VERSION") | sha1sum | cut -c1-12)"
  dir="$VPLATFORM_CACHE/$name-$hash"
  if [ ! -x "$dir/$name" ]; then
    # Several set-ups at once (worktrees, parallel CI jobs) build each binary once: the others wait here.
    mkdir -p "$VPLATFORM_CACHE"
    local lock
    exec {lock}>"$dir.lock"
    if ! flock -n "$lock"; then
      log "waiting for another set-up that is building $name"
      flock "$lock"
    fi
    if [ ! -x "$dir/$name" ]; then
      rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
      # Run in a command substitution (no errexit there): a failed build stops here, explicitly.
      step "building $name from Go modules (first time only; a few minutes)" \
        bash "$ROOT/scripts/build-engine.sh" "$name" "$PULUMI_VERSION" "$src" "$dir.tmp/$name" || return
      rm -rf "$dir" && mv "$dir.tmp" "$dir"
    fi
    exec {lock}>&-
  fi
  echo "$dir/$name"
}

# The engine looks for its bundled plugins (language hosts, the dynamic-provider
# launcher) next to the running `pulumi`, symlinks resolved, and warns "using ...
# from $PATH" when PATH finds one elsewhere. So the CLI and those plugins are
# hard-linked into one cached directory, and .tools/pulumi/bin links into it.
assemble_engine() { # files... -> prints the directory holding them all
  local hash dir tmp f
  hash="$(stat -L -c "%n %s %Y" "$@" | sha1sum | cut -c1-12)"
  dir="$VPLATFORM_CACHE/engine-$hash"
  if [ ! -d "$dir" ]; then
    tmp="$(mktemp -d "$dir.XXXXXX")"
    for f in "$@"; do ln "$f" "$tmp/" 2>/dev/null || cp "$f" "$tmp/"; done
    chmod 0755 "$tmp" "$tmp"/*
    mv -T "$tmp" "$dir" 2>/dev/null || rm -rf "$tmp" # another set-up got there first
  fi
  echo "$dir"
}

ensure_engine() {
  local bin="$ROOT/.tools/pulumi/bin" cli f
  if command -v pulumi >/dev/null 2>&1 && [ "$(readlink -f "$(command -v pulumi)")" != "$(readlink -f "$bin/pulumi")" ] && [ "$(pulumi version 2>/dev/null)" = "v$PULUMI_VERSION" ]; then
    cli="$(readlink -f "$(command -v pulumi)")"
  else
    cli="$(build_cached pulumi "$ROOT/tools/pulumi")"
  fi
  # One assignment each: a failed build stops the set-up (a substitution inside another's arguments would not).
  local hosts=() host engine
  for host in nodejs yaml python go; do
    host="$(build_cached "pulumi-language-$host" "$ROOT/tools/pulumi-language-$host")"
    hosts+=("$host")
  done
  engine="$(assemble_engine "$cli" "${hosts[@]}" "$ROOT/node_modules/@pulumi/pulumi/pulumi-resource-pulumi-nodejs")"
  mkdir -p "$bin"
  for f in "$engine"/*; do ln -sfn "$f" "$bin/${f##*/}"; done
  rm -f "$bin/pulumi-resource-vplatform" # earlier set-ups put our plugin here (see install_plugin)
  export PATH="$bin:$PATH"
  export VPLATFORM_PULUMI_ROOT="$ROOT/.tools/pulumi"
}

# Offline engine settings: local file backend, no update checks, no plugin downloads.
engine_env() {
  export PULUMI_HOME="${PULUMI_HOME:-$ROOT/.pulumi/home}"
  export PULUMI_SKIP_UPDATE_CHECK=true
  export PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true
  export PULUMI_CONFIG_PASSPHRASE="${PULUMI_CONFIG_PASSPHRASE:-vplatform-local}"
  mkdir -p "$PULUMI_HOME"
}

# Our resource plugin (package bin pulumi-resource-vplatform), run from this checkout's build, installed
# in PULUMI_HOME's plugin cache under the package's version. Not on PATH: the engine warns "using ...
# from $PATH" for every plugin it finds there that is not one bundled with the CLI.
install_plugin() {
  local version plugins
  version="$(sed -n 's/^  "version": "\(.*\)",$/\1/p' "$ROOT/package.json")"
  plugins="$PULUMI_HOME/plugins"
  find "$plugins" -maxdepth 1 -name 'resource-vplatform-v*' ! -name "resource-vplatform-v$version" -exec rm -rf {} + 2>/dev/null || true
  mkdir -p "$plugins/resource-vplatform-v$version"
  printf '#!/bin/sh\nexec "%s" "%s/dist/plugin/main.js" "$@"\n' "$(command -v node)" "$ROOT" > "$plugins/resource-vplatform-v$version/pulumi-resource-vplatform"
  chmod 0755 "$plugins/resource-vplatform-v$version/pulumi-resource-vplatform"
}

# Makes DIR once, in place (a virtualenv's scripts name its directory): `maker DIR args...` runs as one step (its
# output in DIR.log, its end shown when it fails; a maker chains its commands with &&), then DIR is marked complete. Several set-ups
# at once (worktrees, parallel CI jobs) make it once: the others wait for it.
made_once() { # dir what maker args...
  local dir="$1" what="$2" lock
  shift 2
  [ -f "$dir/.complete" ] && return 0
  mkdir -p "$VPLATFORM_CACHE"
  exec {lock}>"$dir.lock"
  if ! flock -n "$lock"; then
    log "waiting for another set-up that is making $what"
    flock "$lock"
  fi
  if [ ! -f "$dir/.complete" ]; then
    rm -rf "$dir" "$dir.log" && mkdir -p "$dir"
    step_into "$dir.log" "making $what (once, until what makes it changes)" "$1" "$dir" "${@:2}" || exit 1
    touch "$dir/.complete"
  fi
  exec {lock}>&-
}

# Python, for the SDK generated from schema.json (scripts/gen-python-sdk.sh) and the programs that use it: a
# wheelhouse of `pulumi` at the engine's release and its dependencies from PyPI (so a program's virtualenv installs
# offline: `pip install --no-index --find-links "$VPLATFORM_PYTHON_WHEELS" ...`), and a virtualenv of the build tools
# that make the SDK's wheel and sdist. Both cached by the list of what they hold.
python_venv() { # dir pip-install-arguments... -> a virtualenv at dir holding them, made once
  made_once "$1" "a virtualenv of ${*: -1}" make_python_venv "${@:2}"
}
make_python_venv() { # dir pip-install-arguments...
  python3 -m venv "$1" && "$1/bin/pip" install -q --disable-pip-version-check "${@:2}"
}
download_wheels() { # dir requirements...
  python3 -m pip download -q --disable-pip-version-check "${@:2}" -d "$1"
}

ensure_python_sdk_tools() {
  command -v python3 >/dev/null || { log "python3 (3.9+) is required for the Python SDK and programs"; exit 1; }
  local wants=("pulumi==$PULUMI_VERSION" "parver>=0.2.1" "semver>=2.8.1" "setuptools>=61" wheel build) hash
  hash="$( (printf '%s\n' "${wants[@]}"; python3 --version) | sha1sum | cut -c1-12)"
  export VPLATFORM_PYTHON_WHEELS="$VPLATFORM_CACHE/python-wheels-$hash"
  made_once "$VPLATFORM_PYTHON_WHEELS" "a wheelhouse of pulumi $PULUMI_VERSION and the SDK's build tools from PyPI" \
    download_wheels "${wants[@]}"
  export VPLATFORM_PYTHON_TOOLS="$VPLATFORM_CACHE/python-tools-$hash"
  python_venv "$VPLATFORM_PYTHON_TOOLS" --no-index --find-links "$VPLATFORM_PYTHON_WHEELS" build setuptools wheel
}

# Test-only: the maker's Python client, pyVergeOS from PyPI at the version test/compat/pyvergeos/ pins, in a
# virtualenv of its own (test/compat/pyvergeos.test.ts runs its flows over the emulator with its python).
PYVERGEOS_VERSION=1.7.1
ensure_pyvergeos() {
  local dir="$VPLATFORM_CACHE/pyvergeos-$PYVERGEOS_VERSION-$(python3 --version | tr -dc '0-9.')"
  export VPLATFORM_PYVERGEOS_PYTHON="$dir/bin/python"
  python_venv "$dir" "pyvergeos==$PYVERGEOS_VERSION"
}

# Test-only: the SDKs of schema.json that the language tests share, made once per change of what makes them (like
# the engine) instead of in each test file. VPLATFORM_SDK: the Node.js and Go SDKs, generated and compiled
# (scripts/gen-sdk.sh --go: nodejs/bin, go/). VPLATFORM_PYTHON_SDK: the wheel and sdist of sdk-python/
# (scripts/build-python-sdk.sh: dist/) and venv/, a fresh virtualenv that pip installed the wheel into (pulumi and
# the rest from the wheelhouse), the one the Python programs run with. The scripts run with the main set-up only.
ensure_language_sdks() {
  local hash
  hash="$( (cd "$ROOT" && cat schema.json package.json package-lock.json scripts/gen-sdk.sh tools/pulumi-language-nodejs/go.mod \
    tools/pulumi-language-nodejs/go.sum && readlink -f "$(command -v pulumi-language-nodejs)" && build_cached gen-sdk "$ROOT/tools/gen-sdk") |
    sha1sum | cut -c1-12)"
  export VPLATFORM_SDK="$VPLATFORM_CACHE/sdk-$hash"
  made_once "$VPLATFORM_SDK" "the Node.js and Go SDKs of schema.json" make_sdk
  hash="$( (cd "$ROOT" && find sdk-python -type f -print0 | sort -z | xargs -0 sha1sum && cat scripts/build-python-sdk.sh &&
    echo "$VPLATFORM_PYTHON_TOOLS $VPLATFORM_PYTHON_WHEELS") | sha1sum | cut -c1-12)"
  export VPLATFORM_PYTHON_SDK="$VPLATFORM_CACHE/python-sdk-$hash"
  made_once "$VPLATFORM_PYTHON_SDK" "the Python SDK's wheel, sdist and a virtualenv of the wheel" make_python_sdk
}
make_sdk() { # dir
  VPLATFORM_SETUP=build bash "$ROOT/scripts/gen-sdk.sh" --go "$1" && build_go_example "$1/go"
}
# Go compiles a package that a program imports through a `replace` apart from the same package built in its own
# module: the Go example, built here on the SDK with the tests' flags, fills Go's build cache for the tests' programs.
export VPLATFORM_GOFLAGS="-mod=mod -tags=osusergo,grpcnotrace -trimpath" # the engine's (scripts/build-engine.sh)
build_go_example() { # sdk-module-dir
  local program module
  program="$(mktemp -d)" && cp -r "$ROOT/examples/go-lab/." "$program" &&
    module="$(sed -n 's/^module //p' "$1/go.mod")" &&
    (cd "$program" && go mod edit -replace="$module=$1" && GOFLAGS="$VPLATFORM_GOFLAGS" go build -buildvcs=false -o /dev/null .) &&
    rm -rf "$program"
}
make_python_sdk() { # dir
  VPLATFORM_SETUP=build bash "$ROOT/scripts/build-python-sdk.sh" "$1/dist" &&
    make_python_venv "$1/venv" --no-index --find-links "$VPLATFORM_PYTHON_WHEELS" "$1"/dist/*.whl
}

# The two system packages the tests need, from Debian, installed when missing and we are root (CI runs as root
# on a fresh machine; one apt-get for both): PostgreSQL's server binaries, for the tests whose Pulumi state is
# shared (test/e2e/postgres.ts starts a throwaway cluster in a temporary directory, no system service), and
# Chromium, the headless browser of the web console's test and the Markdown plan's Mermaid test (driven by the
# npm package playwright-core). Without root, the tests that need them fail naming the package.
ensure_system_packages() {
  local missing=()
  compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || missing+=(postgresql)
  [ -x /usr/bin/chromium ] || missing+=(chromium)
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    log "missing Debian packages the tests need: ${missing[*]} (apt-get install -y ${missing[*]}, as root)"
    return 0
  fi
  # A failure here is said (with the log) but does not stop the set-up: only the tests that need them fail.
  step "installing Debian's ${missing[*]} (shared-state and browser tests)" \
    bash -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@"' apt "${missing[@]}" ||
    true
}

# What only the tests need (other Node majors, PostgreSQL, Chromium, pyVergeOS; the language SDKs, above): not for
# the main job (SETUP, at the top).
ensure_test_tools() {
  ensure_other_node 22 VPLATFORM_NODE22
  ensure_other_node 20 VPLATFORM_NODE20
  ensure_system_packages
  ensure_pyvergeos
}

ensure_node
# Node's on-disk cache of compiled code (Node 22.1+; older ones ignore it), inherited by every Node process started from
# here: the tests' workers and the engine's language hosts, dynamic providers and plugin, each loading @pulumi/pulumi
# again (about 12% of an end-to-end test's CPU).
export NODE_COMPILE_CACHE="${NODE_COMPILE_CACHE:-$VPLATFORM_CACHE/node-compile-cache}"
[ "$SETUP" != all ] || ensure_test_tools
ensure_npm_packages
ensure_engine
[ "$SETUP" = main ] || ensure_python_sdk_tools
engine_env
install_plugin
[ "$SETUP" != all ] || ensure_language_sdks
# Every step succeeded: its log says nothing worth keeping.
rm -f "$VPLATFORM_SETUP_LOG"
unset VPLATFORM_SETUP_LOG SETUP
eval "$VPLATFORM_CALLER_SHELL_OPTIONS"
unset VPLATFORM_CALLER_SHELL_OPTIONS
