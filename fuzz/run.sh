#!/usr/bin/env bash
# Runs each libFuzzer target for SECONDS from its committed seed corpus (make fuzz):
#   fuzz/run.sh BUILD_DIR SECONDS TARGET...
# New inputs go to BUILD_DIR/fuzz/corpus/<target> (fuzz/corpus/ stays as committed), a
# finding to BUILD_DIR/fuzz/findings/<target>-*; exit 1 when any target found something.
set -uo pipefail
cd "$(dirname "$0")/.."
build=$1 seconds=$2
shift 2
# The longest input each target reads: a schedule file's line, three result files, a
# checkpoint, an option's value, a strategy spec.
max_len() {
  case $1 in
    schedule_decoder) echo 8192 ;;
    merge_results) echo 16384 ;;
    checkpoint) echo 65536 ;;
    *) echo 512 ;;
  esac
}
failed=()
for t in "$@"; do
  work=$build/fuzz/corpus/$t findings=$build/fuzz/findings
  mkdir -p "$work" "$findings"
  log=$build/fuzz/$t.log
  dict=()
  [ -f "fuzz/dict/$t.dict" ] && dict=(-dict="fuzz/dict/$t.dict")
  # A memory blow-up (more than 2 GiB) and an input slower than 10 s are findings too.
  "$build/bin/fuzz_$t" -max_total_time="$seconds" -max_len="$(max_len "$t")" \
    -rss_limit_mb=2048 -timeout=10 -use_value_profile=1 -print_final_stats=1 \
    -artifact_prefix="$findings/$t-" "${dict[@]}" "$work" "fuzz/corpus/$t" > "$log" 2>&1
  status=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  secs=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -1)
  if [ $status -eq 0 ]; then
    echo "fuzz $t: ${runs:-?} executions in ${secs:-?} s, no finding (log: $log)"
  else
    echo "fuzz $t: FINDING after ${runs:-?} executions (exit $status); log: $log" >&2
    grep -E "^(==[0-9]+==ERROR|SUMMARY|invariant broken)|^  \(|artifact" "$log" | head -8 >&2
    failed+=("$t")
  fi
done
[ ${#failed[@]} -eq 0 ] || { echo "fuzz: findings in ${failed[*]}" >&2; exit 1; }
