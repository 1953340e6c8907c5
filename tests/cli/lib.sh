# Shared by the CLI test scripts (source it after setting $walksim):
#   expect CODE PATTERN -- ARGS...   runs walksim ARGS (at most 60 s) and checks its exit code, that
#                                    its output matches PATTERN (grep -E) and that it printed no raw
#                                    control bytes (input is echoed escaped, never raw);
#   ok TEXT / no TEXT                record a check of the script's own; `exit $fail` at the end.
fail=0
expect() {
  local code="$1" pattern="$2"
  shift 3
  local out
  out=$(timeout 60 "$walksim" "$@" 2>&1)
  local got=$?
  if [ "$got" -ne "$code" ]; then
    echo "FAIL: walksim $* exited $got, expected $code"; echo "$out" | head -5; fail=1
  elif ! grep -qE -- "$pattern" <<<"$out"; then
    echo "FAIL: walksim $* printed no /$pattern/"; echo "$out" | head -5; fail=1
  elif [ -n "$(printf '%s' "$out" | LC_ALL=C tr -d '\n\040-\176\200-\377')" ]; then
    echo "FAIL: walksim $* printed raw control bytes"; printf '%s' "$out" | od -c | head -5; fail=1
  else
    echo "ok: walksim $*"
  fi
}
ok() { echo "ok: $*"; }
no() { echo "FAIL: $*"; fail=1; }
