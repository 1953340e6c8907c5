#!/usr/bin/env bash
# The output layer as an attacker and a careless user would meet it (robustness review, defects 1,
# 2, 3, 7, 9, 12, 17): nothing in an experiment file or --out runs a command, --out never deletes
# what walksim did not write, an error inside a point ends cleanly on any number of jobs, a signal
# stops a run promptly, a closed pipe loses no results.  Usage: output_safety_test.sh WALKSIM SOURCE_DIR
set -u
walksim=$(realpath "$1")
src="$2"
source "$(dirname "$0")/lib.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1

cat > plain.yaml <<'YAML'
name: plain
description: "x"
machine: nehalem-ep-2s8c
kernels: [linux-2.6.38]
workload: {kind: stat-loop}
threads: [1]
run: {ops_per_process: 60, warmup_ops: 0}
YAML

# 1. Command injection: the experiment's name, a kernel label, --out.
sed 's/^name: .*/name: "x'"'"';touch PWNED_NAME;'"'"'"/' plain.yaml > inj-name.yaml
"$walksim" run inj-name.yaml -q >out.txt 2>&1; code=$?
[ "$code" -eq 2 ] && grep -q "key 'name'" out.txt && ok "a name with shell quotes is refused" || { no "name injection: exit $code"; cat out.txt; }
[ -e PWNED_NAME ] && no "the name ran a command"
sed 's/^kernels: .*/kernels: [{kernel: linux-2.6.38, label: "a'"'"' ; system '"'"'touch PWNED_LABEL'"'"' ; #"}]/' plain.yaml > inj-label.yaml
"$walksim" run inj-label.yaml -q -o lblout >out.txt 2>&1; code=$?
[ "$code" -eq 0 ] && ok "a label with gnuplot commands still runs" || { no "label run exit $code"; cat out.txt; }
if [ -e PWNED_LABEL ] || [ -e lblout/PWNED_LABEL ]; then no "the label ran a command through gnuplot"; else ok "the label ran nothing"; fi
(cd lblout && command -v gnuplot >/dev/null && gnuplot plot.gp 2>/dev/null)
[ -e lblout/PWNED_LABEL ] && no "re-running the saved plot.gp ran the label's command"
"$walksim" run plain.yaml -q -o "q';touch PWNED_OUT;'/res" >out.txt 2>&1; code=$?
[ "$code" -eq 0 ] && [ -f "q';touch PWNED_OUT;'/res/results.json" ] && ok "an --out with quotes is just a name" || { no "quoted --out: exit $code"; cat out.txt; }
[ -e PWNED_OUT ] && no "--out ran a command"
sed 's#^name: .*#name: ../../victim#' plain.yaml > trav.yaml
"$walksim" run trav.yaml -q >out.txt 2>&1; code=$?
[ "$code" -eq 2 ] && ok "a name climbing out of results/ is refused" || no "name traversal: exit $code"

# 2. --out never deletes what walksim did not write.
echo precious > notes.txt
"$walksim" run plain.yaml -q -o notes.txt >out.txt 2>&1; code=$?
[ "$code" -eq 2 ] && [ "$(cat notes.txt)" = precious ] && ok "--out FILE is refused, the file kept" || no "--out FILE: exit $code"
mkdir -p mydata && echo thesis > mydata/thesis.tex
"$walksim" run plain.yaml -q -o mydata >out.txt 2>&1; code=$?
[ "$code" -eq 2 ] && grep -q "thesis.tex" out.txt && [ -f mydata/thesis.tex ] && ok "--out DIR of other files is refused before the run" || { no "--out DIR: exit $code"; cat out.txt; }
"$walksim" run plain.yaml -q -o mydata --force >out.txt 2>&1; code=$?
[ "$code" -eq 0 ] && [ -f mydata/thesis.tex ] && [ -f mydata/results.json ] && ok "--force adds the results beside them" || no "--force: exit $code"
"$walksim" run plain.yaml -q -o new/ >out.txt 2>&1; code=$?
[ "$code" -eq 0 ] && [ -f new/results.json ] && ok "--out new/ (trailing slash) works" || { no "--out new/: exit $code"; cat out.txt; }
"$walksim" run plain.yaml -q -o new/ >out.txt 2>&1; code=$?
[ "$code" -eq 0 ] && ok "its own results are replaced" || no "re-run into new/: exit $code"
mkdir -p cwdtest && (cd cwdtest && echo mine > exp.txt && "$walksim" run ../plain.yaml -q -o . >../out.txt 2>&1); code=$?
[ "$code" -eq 2 ] && [ -f cwdtest/exp.txt ] && ok "--out . with the user's files is refused" || no "--out .: exit $code"
(cd cwdtest && "$walksim" run ../plain.yaml -q -o . --force >../out.txt 2>&1); code=$?
[ "$code" -eq 0 ] && [ -f cwdtest/exp.txt ] && [ -f cwdtest/results.json ] && ok "--out . --force writes into the working directory" || { no "--out . --force: exit $code"; cat out.txt; }
ls -a . new mydata cwdtest | grep -q 'walksim-tmp' && no "a temporary directory was left"

# 3. An error inside a point, with several jobs: a clean message, exit 2, nothing left behind.
sed 's/^name: .*/name: short/; s/^threads: .*/threads: [1, 2, 4, 8]/; s/^run: .*/run: {duration: 2us}/' plain.yaml > short.yaml
for j in 1 2 3; do
  "$walksim" run short.yaml -q -j $j -o a/b/c/short >out.txt 2>&1; code=$?
  if [ "$code" -eq 2 ] && grep -q "walksim: error: .*point linux-2.6.38 x[0-9]*: .*measured [0-9]* operation" out.txt &&
     ! grep -q terminate out.txt; then ok "a point's error with -j $j ends as walksim: error, exit 2"; else no "-j $j: exit $code"; cat out.txt; fi
done
[ -e a ] && no "a failed run left the parents it made (a/b/c)"
ls -a | grep -q 'walksim-tmp' && no "a failed run left its temporary directory"

# 7. Ctrl-C and SIGTERM stop a point in flight promptly (this one would take hours), exit 128+sig.
sed 's/^name: .*/name: long/; s/^threads: .*/threads: [8]/; s/^run: .*/run: {ops_per_process: 100000000}/' plain.yaml > long.yaml
for sig in INT TERM; do
  "$walksim" run long.yaml -q -o longout >out.txt 2>&1 &
  pid=$!
  sleep 2
  kill -$sig $pid
  start=$(date +%s)
  wait $pid; code=$?
  took=$(( $(date +%s) - start ))
  want=$([ $sig = INT ] && echo 130 || echo 143)
  if [ "$code" -eq "$want" ] && [ "$took" -le 20 ] && [ ! -e longout ] && ! ls -a | grep -q walksim-tmp; then
    ok "SIG$sig in a long point: exit $code after ${took}s, nothing written"
  else
    no "SIG$sig: exit $code after ${took}s (want $want, promptly, nothing written)"; cat out.txt
  fi
done

# 17. A probe experiment is interrupted like any other: exit 130, nothing left.
{ echo "name: probes"; echo 'description: "x"'; echo "probe:"; echo "  machines:";
  for i in $(seq 60); do echo "    - altix-32n64c"; done; } > probes.yaml
"$walksim" run probes.yaml -o probesout >out.txt 2>&1 &
pid=$!
sleep 1
kill -INT $pid
wait $pid; code=$?
if [ "$code" -eq 130 ] && [ ! -e probesout ] && ! ls -a | grep -q walksim-tmp; then ok "SIGINT in a probe experiment: exit 130, nothing written";
else no "probe experiment SIGINT: exit $code"; cat out.txt | tail -3; fi

# 9. A reader that closes the pipe early does not lose the results.
"$walksim" run plain.yaml -q -o piped | true
[ -f piped/results.json ] && ok "results survive a closed stdout" || no "stdout closed: no results"

# 17. validate --doc at a directory fails before the run and leaves nothing.
mkdir -p docdir
"$walksim" validate --write-doc --doc docdir --dir "$src/tools/experiment/testdata/validation" >out.txt 2>&1; code=$?
[ "$code" -eq 2 ] && [ ! -e docdir.tmp ] && ok "validate --doc DIR is refused" || { no "validate --doc DIR: exit $code"; cat out.txt; }
exit $fail
