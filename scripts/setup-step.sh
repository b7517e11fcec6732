# Sourced by scripts/env.sh (and its test): `step DESCRIPTION COMMAND...` runs one set-up step.
# One line per step that does work: what it does, then how long it took. The tools' own output (npm, apt, go,
# pip) goes to a log file, named with its last lines when the step fails; a step that succeeds leaves no trace.
# Made now, not at the first step: steps also run in command substitutions, whose variables do not come back.
VPLATFORM_SETUP_LOG="$(mktemp "${TMPDIR:-/tmp}/vplatform-setup.XXXXXX")"
step() { # description command...
  step_into "$VPLATFORM_SETUP_LOG" "$@"
}
step_into() { # log description command... (a step whose output is kept in a log of its own)
  local log="$1" what="$2" started=$SECONDS code=0
  shift 2
  printf '[setup] %s ... ' "$what" >&2
  printf '\n== %s\n' "$what" >>"$log"
  "$@" >>"$log" 2>&1 || code=$?
  if [ "$code" = 0 ]; then
    printf 'done in %s s\n' "$((SECONDS - started))" >&2
    return 0
  fi
  printf 'FAILED (exit %s); the whole output: %s; its end:\n' "$code" "$log" >&2
  tail -n 25 "$log" | sed 's/^/[setup]   /' >&2
  return "$code"
}
