#!/bin/bash
# weft on Slurm: a job array runs shard i of N in task i; weft reads SLURM_ARRAY_TASK_ID,
# SLURM_ARRAY_TASK_COUNT and SLURM_ARRAY_TASK_MIN itself (tasks may be numbered from 1).
# A dependent job merges the results:
#
#   jid=$(sbatch --parsable slurm-array.sh)
#   sbatch --dependency=afterany:$jid --wrap \
#     "weft merge --json results/merged.json results/shard-*.json"
#
#SBATCH --job-name=weft
#SBATCH --array=1-16
#SBATCH --cpus-per-task=4
#SBATCH --time=01:00:00
#SBATCH --output=results/%x-%a.log
set -u
mkdir -p results
# --jobs: the task's cores split its shard again (shard i of 16 on 4 workers is shards
# i, i+16, i+32, i+48 of 64); the result file still says shard i of 16.
weft run --strategy portfolio --time 3000 --jobs "${SLURM_CPUS_PER_TASK:-1}" \
  --json "results/shard-${SLURM_ARRAY_TASK_ID}.json" \
  --schedule-out "results/shard-${SLURM_ARRAY_TASK_ID}.weft-schedule" \
  -- ./build/queue_stress
code=$?
# 0 no bug, 1 a bug (its result is written): both are a finished shard.
[ "$code" -le 1 ] && exit 0
exit "$code"
