#!/usr/bin/env bash
# No include goes up a layer: each library of src/ includes only its own headers and those
# of the layers under it (DESIGN.md: core depends on nothing, strategies only on core).
# Fails naming every include that does not, and a directory of src/ the table does not
# place (a new layer is placed here first).
#
#   layering_test.sh <source dir>
set -uo pipefail
src=$1/src

# Each layer: the layers whose headers it may include (itself always). weft/ is the public
# API (include/weft), which every layer may use.
declare -A may=(
  [core]="weft"
  [sys]=""
  [strategy]="core weft"
  [detect]="core sys weft"
  [runtime]="core sys detect weft"
  [intercept]="core sys detect runtime weft"
  [report]="core weft"
  [explore]="core sys detect runtime strategy report weft"
  [cli]="core strategy report weft"
)

bad=0
for dir in "$src"/*/; do
  layer=$(basename "$dir")
  if [[ ! -v may[$layer] ]]; then
    echo "layering_test: src/$layer is in no layer of the table in $0" >&2
    bad=1
    continue
  fi
  allowed=" $layer ${may[$layer]} "
  while IFS=: read -r file line text; do
    target=$(sed -E 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"([a-z_]+)\/.*/\1/' <<<"$text")
    [[ "$allowed" == *" $target "* ]] && continue
    echo "layering_test: ${file#"$1"/}:$line includes $target/ (src/$layer may include: ${may[$layer]:-nothing but itself})" >&2
    bad=1
  done < <(grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[a-z_]+/' "$dir" --include='*.hpp' --include='*.cpp' --include='*.h' --include='*.def')
done
[ $bad -eq 0 ] && echo "layering_test: every include of src/ stays in its layer or goes down"
exit $bad
