#!/usr/bin/env bash
# Kill soak (issue 27): starts RUNS weft runs, one after the other, each on a program of
# programs/pass or programs/fail with a random strategy, --jobs 1 or 2, and kills it at a
# random time (0 to 1.5 s, most below 150 ms: before its fork servers start, during the
# search, or after it ended) with a random signal: SIGINT to its process group (Ctrl-C), SIGTERM or SIGKILL
# to weft. Then it checks what the run must leave:
#   - no process: none of the run's (weft, fork servers, executions: found in /proc by a
#     marker in their environment) alive once weft has ended;
#   - the right exit status: 130 after SIGINT, 143 after SIGTERM, 137 after SIGKILL, or
#     the run's own (0, 1, 2) when its result shows it ended before the signal; never a
#     hang;
#   - after SIGINT or SIGTERM, a valid --json result (unless the signal came before weft's
#     main began: then weft printed nothing) and no weft-XXXXXX directory;
#   - at the end, no weft-XXXXXX directory at all in the soak's own TMPDIR (a killed
#     weft's is removed by the next run; one last short run sweeps the final ones), and
#     no process of the soak's alive.
# Memory: nothing of weft's may survive a run (checked above, each run), so nothing of
# it can grow; MemAvailable before and after is printed as a coarse cross-check.
#
#   RUNS=1000 BUILD=build tests/soak/kill_soak.sh     (make soak; not part of make test)
#   SEED=N repeats a soak's random choices.
# Exit status 0 when every check held; 1 otherwise, each failure printed.
set -u

RUNS=${RUNS:-1000}
BUILD=${BUILD:-build}
SEED=${SEED:-$$}
RANDOM=$SEED
here=$(cd "$(dirname "$0")/../.." && pwd)
weft=$here/$BUILD/bin/weft
programs=$here/$BUILD/programs
[ -x "$weft" ] || { echo "kill_soak: no $weft (build first: make build)" >&2; exit 2; }
mapfile -t candidates < <(find "$programs/pass" "$programs/fail" -maxdepth 1 -type f -perm -u+x | sort)
[ ${#candidates[@]} -gt 0 ] || { echo "kill_soak: no programs under $programs" >&2; exit 2; }
strategies=(dfs dpor pb pb:1 db:2 bf random pct:3 pctvb pos 'pos*' tb portfolio)
signals=(INT TERM KILL)

soak_id="soak$$-$SEED"
work=$(mktemp -d "${TMPDIR:-/tmp}/weft-kill-soak.XXXXXX")
export TMPDIR=$work/tmp
mkdir -p "$TMPDIR"
# Only the soak's own shell removes it: a job signalled between its fork and its exec is
# still a copy of this shell and runs this trap too (bash), which once removed $work in
# the middle of a soak (run 947 of 1000: every later run failed). $BASHPID told no
# difference there; /proc/self does.
trap 'read -r me _ < /proc/self/stat; [ "$me" != "$$" ] || rm -rf "$work"' EXIT

failures=0
exec 3>&2  # the failures; the shell's own notices (a job "Killed") go nowhere
# Job control: each run a process group of its own, as an interactive shell's job is, with
# SIGINT at its default until weft catches it.
set -m
fail() {
  echo "FAIL run $1: $2" >&3
  failures=$((failures + 1))
}

# The live processes whose environment holds `marker` (zombies are dead).
alive_with() {
  local marker=$1 e pid state
  for e in /proc/[0-9]*/environ; do
    pid=${e#/proc/}
    pid=${pid%/environ}
    grep -qzx -- "$marker" "$e" 2>/dev/null || continue
    state=$(sed 's/.*) //' "/proc/$pid/stat" 2>/dev/null | cut -d' ' -f1)
    [ -n "$state" ] && [ "$state" != Z ] && [ "$state" != X ] && echo "$pid"
  done
}

# Polls (10 ms) until `cmd` succeeds, for at most $2 seconds; its status.
wait_until() {
  local cmd=$1 polls=$(($2 * 100))
  for ((t = 0; t < polls; t++)); do
    eval "$cmd" && return 0
    sleep 0.01
  done
  return 1
}

# The run's result shows it ended before any signal (no "interrupted").
ended_by_itself() {
  python3 -c "import json,sys; sys.exit('interrupted' in json.load(open(sys.argv[1])))" "$1" 2>/dev/null
}

mem_kb() { awk '/^MemAvailable:/ {print $2}' /proc/meminfo; }
mem_before=$(mem_kb)
declare -A outcome
start=$(date +%s)
exec 2>/dev/null

for ((i = 1; i <= RUNS; i++)); do
  program=${candidates[RANDOM % ${#candidates[@]}]}
  strategy=${strategies[RANDOM % ${#strategies[@]}]}
  jobs=$((RANDOM % 2 + 1))
  sig=${signals[RANDOM % ${#signals[@]}]}
  # Mostly early (most searches of these small programs end within a second).
  if ((RANDOM % 4 == 0)); then delay_ms=$((RANDOM % 1500)); else delay_ms=$((RANDOM % 150)); fi
  marker="WEFT_SOAK_RUN=$soak_id-$i"
  json=$work/result-$i.json
  out=$work/out-$i.txt
  # A job of its own (set -m above): a process group with weft's pid, made before $! is
  # known, and SIGINT not ignored (a script's background jobs ignore it without job
  # control, and a SIGINT that came before weft's main installed its handler was lost:
  # weft ran on for 60 s).
  WEFT_SOAK_ID=$soak_id env "$marker" "$weft" run -q -s "$strategy" -n 0 --jobs "$jobs" \
    --json "$json" -- "$program" </dev/null >"$out" 2>&1 &
  pid=$!
  sleep "$(printf '%d.%03d' $((delay_ms / 1000)) $((delay_ms % 1000)))"
  case $sig in
    # Ctrl-C: the whole group
    INT) kill -INT -- "-$pid" 2>/dev/null ;;
    *) kill "-$sig" "$pid" 2>/dev/null ;;
  esac
  # weft ends within 60 s, whatever the signal.
  if ! wait_until "! kill -0 $pid 2>/dev/null" 60; then
    fail "$i" "weft ($strategy, --jobs $jobs, SIG$sig after ${delay_ms} ms) still runs after 60 s"
    kill -KILL -- "-$pid" 2>/dev/null
  fi
  wait "$pid"
  status=$?
  what="SIG$sig $strategy --jobs $jobs $(basename "$(dirname "$program")")/$(basename "$program") after ${delay_ms} ms"
  case $sig in
    INT) want=130 ;;
    TERM) want=143 ;;
    KILL) want=137 ;;
  esac
  if [ "$status" = "$want" ]; then
    outcome[$sig-killed]=$((${outcome[$sig-killed]:-0} + 1))
  elif [ "$status" -le 2 ] && ended_by_itself "$json"; then
    outcome[$sig-ended-first]=$((${outcome[$sig-ended-first]:-0} + 1))
  else
    fail "$i" "$what: exit status $status, not $want: $(tail -3 "$out")"
  fi
  if ! wait_until "[ -z \"\$(alive_with '$marker')\" ]" 30; then
    fail "$i" "$what: processes left: $(alive_with "$marker" | tr '\n' ' ')"
  fi
  if [ "$sig" != KILL ]; then
    if [ ! -e "$json" ] && [ ! -s "$out" ]; then
      # Not even weft's first line (its handler says it got the signal): the signal came
      # before weft's main began (or before env executed it), when there is
      # nothing to clean up yet, and no sweep of the killed runs' directories either.
      outcome[$sig-before-start]=$((${outcome[$sig-before-start]:-0} + 1))
      outcome[$sig-killed]=$((${outcome[$sig-killed]:-0} - 1))
    else
      python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$json" 2>/dev/null ||
        fail "$i" "$what: no valid --json result: $(tail -3 "$out")"
      left=$(find "$TMPDIR" -maxdepth 1 -name 'weft-??????' | wc -l)
      [ "$left" = 0 ] || fail "$i" "$what: $left weft-XXXXXX directories left"
    fi
  fi
  rm -f "$json" "$out"
  [ $((i % 100)) = 0 ] && echo "kill_soak: $i of $RUNS runs, $failures failures"
done

exec 2>&3
# The last killed runs' directories: the next run removes them.
"$weft" run -q -s random -n 1 --jobs 1 -- "${candidates[0]}" </dev/null >/dev/null 2>&1
left=$(find "$TMPDIR" -maxdepth 1 -name 'weft-*' | wc -l)
[ "$left" = 0 ] || fail end "$left weft-* entries left in $TMPDIR: $(ls "$TMPDIR" | head -5 | tr '\n' ' ')"
survivors=$(alive_with "WEFT_SOAK_ID=$soak_id" | wc -l)
[ "$survivors" = 0 ] || fail end "$survivors processes of the soak alive"
mem_after=$(mem_kb)

echo "kill_soak: $RUNS runs in $(($(date +%s) - start)) s (seed $SEED)"
for k in $(printf '%s\n' "${!outcome[@]}" | sort); do echo "  $k: ${outcome[$k]}"; done
echo "  processes left: $survivors; weft-* left in TMPDIR: $left"
echo "  MemAvailable: $((mem_before / 1024)) MiB before, $((mem_after / 1024)) MiB after (other jobs share the machine)"
if [ "$failures" != 0 ]; then
  echo "kill_soak: $failures failures" >&2
  exit 1
fi
echo "kill_soak: every check held"
