#!/usr/bin/env bash
# `walksim validate`: prints the machine and the calibration share, exits 0 with failing figures
# unless --strict (then 1), writes a report only with --write-doc, and names files relative to
# the repository, never by the host's absolute path.  Usage: validate_test.sh WALKSIM SOURCE_DIR
set -u
walksim=$(realpath "$1")
src="$2"
source "$(dirname "$0")/lib.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
dir="$src/tools/experiment/testdata/validation"

out=$("$walksim" validate --dir "$dir" 2>&1); code=$?
[ "$code" -eq 0 ] && ok "a failing figure without --strict exits 0" || no "validate exit $code"
grep -q "nehalem-ep-2s8c" <<<"$out" && ok "the machine is shown" || no "no machine column"
grep -qE "[0-9]+% cpu_cost_scale" <<<"$out" && ok "the calibration share is shown" || { no "no calibration share"; echo "$out"; }
grep -q "2 of 3 figures" <<<"$out" && ok "2 of 3 figures pass" || { no "unexpected pass count"; echo "$out"; }
"$walksim" validate --dir "$dir" --strict >/dev/null 2>&1; code=$?
[ "$code" -eq 1 ] && ok "--strict exits 1 on a failing figure" || no "--strict exit $code"
before=$(md5sum "$src/docs/validation.md")
"$walksim" validate --dir "$dir" >/dev/null 2>&1
[ "$before" = "$(md5sum "$src/docs/validation.md")" ] && ok "without --write-doc nothing is written" || no "docs/validation.md changed"
"$walksim" validate --dir "$dir" --write-doc --doc "$work/v.md" >/dev/null 2>&1; code=$?
[ "$code" -eq 0 ] && [ -s "$work/v.md" ] && ok "--write-doc --doc writes the report" || no "--write-doc exit $code"
grep -q "tools/experiment/testdata/validation/v-small.yaml" "$work/v.md" && ok "the file is named from the repository root" || no "path not repository-relative"
grep -q "$src" "$work/v.md" && no "the report holds the host's absolute path"
"$walksim" validate --dir "$dir" --doc "$work/v2.md" >/dev/null 2>&1; code=$?
[ "$code" -eq 2 ] && [ ! -e "$work/v2.md" ] && ok "--doc without --write-doc is refused" || no "--doc alone exit $code"
out=$("$walksim" validate --dir "$dir" --quiet --sensitivity 5 2>&1); code=$?
[ "$code" -eq 0 ] && grep -q "private costs -/+5%" <<<"$out" && grep -q "0 of 3 figures UNSTABLE" <<<"$out" \
  && ok "--sensitivity 5 adds the column and the count of unstable figures" || { no "--sensitivity exit $code"; echo "$out"; }
grep -qE "pass +[-+][0-9]+%/[-+][0-9]+%" <<<"$out" && ok "each row says how far its prediction moved" || { no "no movement shown"; echo "$out"; }
"$walksim" validate --dir "$dir" --sensitivity 0 >/dev/null 2>&1; code=$?
[ "$code" -eq 2 ] && ok "--sensitivity 0 is refused" || no "--sensitivity 0 exit $code"
"$walksim" validate --dir "$dir" --sensitivity much >/dev/null 2>&1; code=$?
[ "$code" -eq 2 ] && ok "--sensitivity with no number is refused" || no "--sensitivity much exit $code"
exit $fail
