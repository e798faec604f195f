#!/usr/bin/env bash
# weft(1) is generated, renders without a warning, and mentions every long option that
# `weft --help`, `weft run --help` and `weft replay --help` list and every strategy that
# `weft strategies` lists, so that the page cannot drift from the help.
#
#   man_test.sh <weft.1> <weft binary>
set -euo pipefail
page=$1 weft=$2
fail() { echo "man_test: FAIL: $*" >&2; exit 1; }

[ -s "$page" ] || fail "$page was not generated (build the weft_man target)"
grep -q '^\.TH WEFT "1"' "$page" || fail "$page has no .TH WEFT 1 header"

# groff's own warnings (all of them) and man-db's (its default set, as `man` shows them).
warnings=$(groff -man -Tutf8 -ww -z "$page" 2>&1) || fail "groff failed on $page: $warnings"
[ -z "$warnings" ] || fail "groff warns about $page:"$'\n'"$warnings"
warnings=$(MANWIDTH=1000 man --warnings -l "$page" 2>&1 >/dev/null) || fail "man -l $page failed: $warnings"
[ -z "$warnings" ] || fail "man warns about $page:"$'\n'"$warnings"

# One very wide line per paragraph, so that no option name is hyphenated at a line end.
text=$(MANWIDTH=1000 man -l "$page")
for section in NAME SYNOPSIS DESCRIPTION OPTIONS COMMANDS "WEFT RUN" "WEFT REPLAY" STRATEGIES \
               "EXIT STATUS" ENVIRONMENT FILES EXAMPLES "SEE ALSO"; do
  grep -qx "$section" <<<"$text" || fail "no $section section in $page"
done

checked=0
for command in "" run replay; do
  help=$("$weft" $command --help)
  options=$(grep -oE '^ +(-[a-zA-Z],)?--[a-z][a-z-]*' <<<"$help" | sed 's/.*--/--/' | sort -u)
  [ -n "$options" ] || fail "no long option found in 'weft $command --help'"
  for option in $options; do
    grep -qE -- "(^|[^a-z-])$option([^a-z-]|\$)" <<<"$text" ||
      fail "$page does not mention $option (weft $command --help lists it): rebuild weft_man"
    checked=$((checked + 1))
  done
done
while read -r usage _; do
  grep -qF -- "$usage" <<<"$text" || fail "$page does not list the strategy $usage: rebuild weft_man"
  checked=$((checked + 1))
done < <("$weft" strategies)
echo "man_test: $page renders without warnings and mentions all $checked options and strategies"
