#!/bin/bash
# Runs one Bazel test shard of a weft search. Bazel sets TEST_SHARD_INDEX,
# TEST_TOTAL_SHARDS and TEST_UNDECLARED_OUTPUTS_DIR; merge the shards' results afterwards
# with: weft merge bazel-testlogs/queue_weft_test/shard_*_of_4/test.outputs/weft.json
set -u
out="${TEST_UNDECLARED_OUTPUTS_DIR:-.}"
exec weft run --strategy dpor --time 600 --json "$out/weft.json" \
  --schedule-out "$out/bug.weft-schedule" -- "$1"
