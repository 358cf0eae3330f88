#!/usr/bin/env bash
# Host paths outside the judge (host_path.py) beside the judge's account.
set -u
root=$(pwd); o=${OUT:-/tmp/out}; mkdir -p "$o/r"
. tests/gpu/built_env.sh
P=resources/problems/gpu
for spec in "gpu_batch_event_truncate" "gpu_batch_event_truncate SCHEDULE=chunks" "gpu_rmsnorm_bwd PREFETCH=false" "gpu_mapid"; do
  set -- $spec; p=$1; shift
  echo "=== host_path $p $*"
  timeout 150 python3 tests/gpu/host_path.py $P/$p $P/$p/seeds/triton.py "$@" --calls 200 --profile-top 14 2>&1 | tail -40
done > "$o/r/host_path.out"
cat "$o/r/host_path.out" | grep -v "^ *[0-9]" | head -120
