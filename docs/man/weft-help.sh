#!/usr/bin/env bash
# The text help2man turns into weft(1): `weft --help`, then `weft run --help`, `weft
# replay --help` and `weft strategies`, each under a help2man section marker (*Name*), so
# that the man page says exactly what the CLI says. $WEFT is the weft binary; help2man
# runs this script as `weft-help.sh --help`. A few headings are renamed so that help2man
# does not merge them into its own sections (a second "Options:" would join OPTIONS).
set -euo pipefail
: "${WEFT:?set WEFT to the weft binary}"
weft() { (exec -a weft "$WEFT" "$@"); }
case "${1:-}" in
  --version) weft --help >/dev/null && echo "weft ${WEFT_VERSION:-}"; exit 0 ;;
  --help) ;;
  *) echo "usage: WEFT=path/to/weft $0 --help" >&2; exit 2 ;;
esac

# The top level: its pointers to the other help texts and to docs/ are the man page's
# own sections (the subcommands below, SEE ALSO in weft.h2m).
weft --help | sed -e "1{/^weft: /d}" -e 's/^Subcommands:$/*Commands*/' -e 's/^Exit status:$/*Exit status*/' \
  -e "/^Run 'weft run --help'/,/^\$/d" -e '/^Documentation:/,/^$/d'
for command in run replay minimize; do
  printf '\n*weft %s*\n' "$command"
  weft "$command" --help | sed -e "s/^Options:\$/Options of weft $command:/" -e 's/^Usage:/\n&/'
done
# One tagged paragraph per strategy: usage, two spaces, description.
printf '\n*Strategies*\n'
weft strategies | while read -r usage description; do
  printf '  %s  %s\n' "$usage" "$description"
done
