#!/usr/bin/env bash
# Runs docs/tutorial.md as a reader would, from a copy of the repository root: every
# command of its ```sh blocks, in order, must exit with the status its comment states
# ("# exit status N"; 0 when it states none), and every line of a ```text block that
# follows a ```sh block must appear in the output of that block's last command, once
# addresses, the program's fingerprint and timings are blurred (a line "..." marks output
# left out). ```console blocks are shown, not run (a session, or an outcome the OS decides).
#
#   tutorial_test.sh <tutorial.md> <source dir> <build dir> <work dir>
set -uo pipefail
doc=$1 src=$2 build=$3 work=$4
fail() { echo "tutorial_test: FAIL: $*" >&2; exit 1; }

# The repository root as the tutorial sees it: programs/ and build/bin/, nothing written
# into the real tree (build/tutorial/ and bank.weft-schedule land in the work dir).
rm -rf "$work"
mkdir -p "$work/root/build" "$work/outputs" || fail "cannot make $work"
ln -s "$src/programs" "$work/root/programs"
ln -s "$build/bin" "$work/root/build/bin"
# The caller's WEFT_* settings must not change what the tutorial shows (WEFT_CC and
# WEFT_CXX pick the wrappers' compiler: the tutorial's output is the default one's).
unset WEFT_STRATEGY WEFT_EXECUTIONS WEFT_TIME WEFT_SEED WEFT_REPLAY WEFT_CC WEFT_CXX
# The tutorial shows what weft run does by default on a 2-core machine, two workers (it
# says so): the same on every machine. How many executions the workers ran in all depends
# on when each learnt of the other's bug: blurred below, the per-worker lines left out.
export WEFT_JOBS=2
# And reports unwrapped, as a terminal wide enough shows them: the same on every terminal.
export COLUMNS=1000

# What may differ from run to run or machine to machine, blurred in both texts.
blur() {
  sed -E -e 's/0x[0-9a-f]{5,}/0x?/g' \
         -e 's/(weft[0-9]+)\.[0-9a-f]{16}\./\1.?./g' \
         -e 's/(weft[0-9]+\.[^ ]*)\.[0-9a-f]{8}( |$)/\1.?\2/g' \
         -e 's/[0-9]+\.[0-9]+ s\b/? s/g' \
         -e 's/(found in execution [0-9]+ of )[0-9]+/\1?/g' \
         -e 's/[0-9]+ executions on ([0-9]+) workers/? executions on \1 workers/g' \
         -e 's/(of [0-9]+ workers: )[0-9]+ executions/\1? executions/g' \
         -e 's/[[:space:]]+/ /g' -e 's/^ //' -e 's/ $//'
}

n=0 commands=0 checked=0 mode="" pending="" last_out="" last_cmd=""
expected=()
check_output() {  # the ```text block just read, against the last command's output
  [ -n "$last_out" ] || fail "a \`\`\`text block in $doc follows no command"
  local actual
  actual=$(blur <"$last_out")
  for line in "${expected[@]}"; do
    line=$(printf '%s\n' "$line" | blur)
    [ -z "$line" ] || [ "$line" = "..." ] && continue
    grep -qF -- "$line" <<<"$actual" ||
      { cat "$last_out" >&2; fail "the output of '$last_cmd' (above) has no line '$line', which $doc quotes"; }
    checked=$((checked + 1))
  done
}
run_command() {
  local cmd=$1 want=0 got=0
  if [[ $cmd =~ \#\ exit\ status\ ([0-9]+) ]]; then want=${BASH_REMATCH[1]}; fi
  n=$((n + 1))
  last_out="$work/outputs/$(printf %02d $n).out"
  last_cmd=$cmd
  (cd "$work/root" && timeout 300 bash -c "$cmd" </dev/null >"$last_out" 2>&1) || got=$?
  echo "\$ $cmd" >>"$work/outputs/all.log"
  cat "$last_out" >>"$work/outputs/all.log"
  [ "$got" -eq "$want" ] ||
    { cat "$last_out" >&2; fail "'$cmd' exited $got, $doc says $want (its output is above)"; }
  commands=$((commands + 1))
}

while IFS= read -r line || [ -n "$line" ]; do
  case "$mode" in
  "")
    case "$line" in
      '```sh') mode=sh ;;
      '```text') mode=text; expected=() ;;
      '```'*) mode=other ;;
    esac ;;
  sh)
    if [ "$line" = '```' ]; then mode=""; continue; fi
    if [ -n "$pending" ]; then line="$pending $line"; pending=""; fi
    if [[ $line == *\\ ]]; then pending=${line%\\}; continue; fi
    [[ $line =~ ^[[:space:]]*(#|$) ]] && continue
    run_command "$line" ;;
  text)
    if [ "$line" = '```' ]; then mode=""; check_output; continue; fi
    expected+=("$line") ;;
  other)
    [ "$line" = '```' ] && mode="" ;;
  esac
done <"$doc"
[ "$mode" = "" ] || fail "$doc ends inside a code block"
[ "$commands" -gt 0 ] || fail "no command found in $doc"
echo "tutorial_test: $commands commands ran with the exit status $doc states; $checked quoted output lines found"
