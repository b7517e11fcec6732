#!/usr/bin/env bash
# The examples/gitops workflow run for real, its steps in order, as a runner runs them for the `dev`
# stack: a fresh checkout of the team's repository, the packed vplatform tarball installed, the plan
# written as the pull-request comment (Markdown) and checked by the package's policy pack, then `up`,
# the nightly drift check (exit 0), a change made outside the repository, the drift check again
# (exit 2), `up` putting it back, and `destroy`. The platform is the emulator of the installed package.
#
# usage: PULUMI_BACKEND_URL=postgres://... scripts/gitops-workflow.sh <empty work directory>
# (run by test/e2e/gitops-workflow.test.ts after a build; needs the engine on PATH: source scripts/env.sh)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WORK="$(cd "${1:?usage: PULUMI_BACKEND_URL=postgres://... $0 <empty work directory>}" && pwd)"
: "${PULUMI_BACKEND_URL:?set PULUMI_BACKEND_URL to the shared backend (postgres://...)}"
export PULUMI_CONFIG_PASSPHRASE="${PULUMI_CONFIG_PASSPHRASE:-}" PULUMI_SKIP_UPDATE_CHECK=true PULUMI_HOME="$WORK/pulumi-home"
STACK=dev
FILE="environments/$STACK.yaml"

step() { printf '\n== %s\n' "$*" >&2; }
# Runs a command that must end with the given exit code.
expect_exit() {
  local want="$1" got=0
  shift
  "$@" || got=$?
  [ "$got" = "$want" ] || { echo "gitops-workflow: expected exit $want from: $*; got $got" >&2; exit 1; }
}

step "checkout: a fresh copy of the team's repository"
cp -r "$ROOT/examples/gitops" "$WORK/repo"
cd "$WORK/repo"

step "install: the packed vplatform tarball (npm pack of this checkout) in vendor/, then the workflow's npm ci"
tarball="$(cd "$ROOT" && npm pack --silent --ignore-scripts --pack-destination "$WORK" | tail -n 1)"
mkdir -p vendor && cp "$WORK/$tarball" "vendor/$tarball"
npm ci --no-audit --no-fund --prefer-offline --loglevel=error >&2

step "the platform: the installed package's emulator"
PASSWORD="workflow-$RANDOM$RANDOM"
# The bin itself (not through npx), so that its pid is the emulator's and the trap stops it.
node_modules/.bin/vplatform-emulator --port 0 --admin-password "$PASSWORD" --time-scale 0.01 > "$WORK/emulator.url" 2> "$WORK/emulator.log" &
EMULATOR_PID=$!
trap 'kill "$EMULATOR_PID" 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do [ -s "$WORK/emulator.url" ] && break; sleep 0.1; done
ENDPOINT="$(head -n 1 "$WORK/emulator.url")"
[ -n "$ENDPOINT" ] || { echo "gitops-workflow: the emulator did not start" >&2; exit 1; }
export VPLATFORM_ENDPOINT="$ENDPOINT" VPLATFORM_USERNAME=admin VPLATFORM_PASSWORD="$PASSWORD" VPLATFORM_INSECURE=true

step "plan (pull request): the comment, with the package's policy pack"
npx vplatform env preview "$FILE" --stack "$STACK" --markdown --policy-pack node_modules/vplatform/policy \
  > "$WORK/comment.md" 2> "$WORK/plan-engine.txt"

step "policy: a production VM that could be restarted unannounced is stopped at preview"
# The dev file as a stack named like prod*: its VM does not set powerCyclePolicy: refuse.
cp "$FILE" environments/prod-try.yaml
# The report (what the workflow posts) names the rule and why; stderr has the engine's progress.
expect_exit 1 npx vplatform env preview environments/prod-try.yaml --stack prod-try --markdown --policy-pack node_modules/vplatform/policy \
  > "$WORK/policy-stopped.md" 2> "$WORK/policy-stopped-engine.txt"

step "up (merge to main)"
npx vplatform env up "$FILE" --stack "$STACK" --wait-for-lock 600 > "$WORK/up.txt"

step "drift (nightly): the platform matches the file"
expect_exit 0 npx vplatform env drift "$FILE" --stack "$STACK" > "$WORK/drift-clean.txt"

step "the stock CLI on the same stack: the drift check teams already have passes, and runs the installed policy pack"
printf 'name: vplatform-env\nruntime: nodejs\nmain: node_modules/vplatform/dist/env/main.js\n' > Pulumi.yaml
pulumi preview --stack "$STACK" --non-interactive --expect-no-changes --policy-pack node_modules/vplatform/policy > "$WORK/stock-preview.txt"
rm Pulumi.yaml

step "someone changes the VM outside the repository"
vm_key="$(curl -fsSk -u "admin:$PASSWORD" "$ENDPOINT/api/v4/vms?fields=\$key&filter=name%20eq%20'shop-dev-web'" | node -e 'process.stdout.write(String(JSON.parse(require("fs").readFileSync(0, "utf8"))[0].$key))')"
curl -fsSk -u "admin:$PASSWORD" -X PUT "$ENDPOINT/api/v4/vms/$vm_key" -H 'content-type: application/json' -d '{"ram":4096}' >&2

step "drift (nightly): exit 2"
expect_exit 2 npx vplatform env drift "$FILE" --stack "$STACK" > "$WORK/drift-found.txt"

step "up: the platform put back as the file says"
npx vplatform env up "$FILE" --stack "$STACK" --wait-for-lock 600 > "$WORK/up-again.txt"
expect_exit 0 npx vplatform env drift "$FILE" --stack "$STACK" >> "$WORK/drift-clean.txt"

step "destroy"
npx vplatform env destroy "$FILE" --stack "$STACK" > "$WORK/destroy.txt"
echo "gitops-workflow: every step passed" >&2
