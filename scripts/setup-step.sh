# Sourced by scripts/env.sh (and its test): `step DESCRIPTION COMMAND...` runs one set-up step.
# One line per step that does work: what it does, then how long it took. The tools' own output (npm, apt, go,
# pip) goes to a log file, named with its last lines when the step fails; a step that succeeds leaves no trace.
# Made now, not at the first step: steps also run in command substitutions, whose variables do not come back.
VPLATFORM_SETUP_LOG="$(mktemp "${TMPDIR:-/tmp}/vplatform-setup.XXXXXX")"
step() { # description command...
  local what="$1" started=$SECONDS code=0
  shift
  printf '[setup] %s ... ' "$what" >&2
  printf '\n== %s\n' "$what" >>"$VPLATFORM_SETUP_LOG"
  "$@" >>"$VPLATFORM_SETUP_LOG" 2>&1 || code=$?
  if [ "$code" = 0 ]; then
    printf 'done in %s s\n' "$((SECONDS - started))" >&2
    return 0
  fi
  printf 'FAILED (exit %s); the whole output: %s; its end:\n' "$code" "$VPLATFORM_SETUP_LOG" >&2
  tail -n 25 "$VPLATFORM_SETUP_LOG" | sed 's/^/[setup]   /' >&2
  return "$code"
}
