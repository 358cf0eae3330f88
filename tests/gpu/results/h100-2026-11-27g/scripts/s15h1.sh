#!/usr/bin/env bash
# H100: device time of seed variants outside the judge (host_path.py's events).
set -u
root=$(pwd); o=${OUT:-/tmp/out}; mkdir -p "$o/r"
[ -x /tmp/kw-gpu-build/app/cli/kernelwright-cli ] || { STEP=build bash tests/gpu/run_on_gpu.sh "$root/.debs" /tmp/n-build > "$o/r/build.out" 2>&1 || { tail -20 "$o/r/build.out"; exit 1; }; }
. tests/gpu/built_env.sh
P=resources/problems/gpu
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv
while read -r p rest; do
  [ -n "$p" ] || continue
  echo "=== $p $rest"
  timeout 100 python3 tests/gpu/host_path.py $P/$p $P/$p/seeds/triton.py $rest --calls 100 --profile-top 1 2>&1 | grep -E "host path \(|device \(|back to back|Error|error" | head -6
done <<LIST > "$o/r/h1.out" 2>&1
${LIST:-}
LIST
cat "$o/r/h1.out"
