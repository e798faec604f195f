#!/usr/bin/env bash
# The sampling strategies on the suite's failing programs that need more than a few
# executions (docs/choosing-a-strategy.md quotes its table): executions to the first bug,
# median [min-max] over the seeds 1-10 that found it (the lower median when they are even
# in number), and how many found it within the budget.
# Executions, unlike seconds, do not depend on the machine: a rerun prints the same table.
#
#   bench/samplers.sh [build dir] [budget] [strategy...]
#     defaults: build, 1000, random pct:3 pos pos* tb tb:3:1 pctvb portfolio
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
budget=${2:-1000}
shift $(($# < 2 ? $# : 2))
weft=$build/bin/weft
fail=$build/programs/fail
strategies=(random pct:3 pos 'pos*' tb tb:3:1 pctvb portfolio)
[ $# -eq 0 ] || strategies=("$@")
# Each program as its programs/fail/<name>/weft.json runs it (reorder: races reported).
programs=("dining_philosophers" "bounded_queue" "pipeline" "producer_consumer"
          "work_stealing_queue" "reorder 5 --races=report" "reorder 10 --races=report")

printf 'executions to the first bug, median [min-max] over seeds 1-10 (found/10); budget %s\n' "$budget"
printf '%-22s' program
for s in "${strategies[@]}"; do printf ' %-19s' "$s"; done
printf '\n'
for p in "${programs[@]}"; do
  read -r name arg races <<<"$p"
  printf '%-22s' "$name${arg:+ $arg}"
  for s in "${strategies[@]}"; do
    found=()
    for seed in $(seq 1 10); do
      status=0
      out=$(cd /tmp && "$weft" run --jobs 1 -q --json - --schedule-out /dev/null -s "$s" -n "$budget" \
              --seed "$seed" ${races:-} -- "$fail/$name" ${arg:-} 2>/dev/null) || status=$?
      [ "$status" -eq 1 ] || continue  # 0: no bug within the budget; 2: a tool error
      # The first bug's execution (the races reported after "bugs" have one too).
      n=$(sed -n '/"bugs": \[/,/"races"/p' <<<"$out" | grep -o '"execution": [0-9]*' | head -1 |
          grep -o '[0-9]*$' || true)
      [ -n "$n" ] && found+=("$n")
    done
    if [ ${#found[@]} -eq 0 ]; then
      cell="- (0/10)"
    else
      sorted=($(printf '%s\n' "${found[@]}" | sort -n))
      k=${#sorted[@]}
      cell="${sorted[$(((k - 1) / 2))]} [${sorted[0]}-${sorted[$((k - 1))]}] ($k/10)"
    fi
    printf ' %-19s' "$cell"
  done
  printf '\n'
done
