#!/usr/bin/env bash
# The bench of the nine, resumed call to call on a warm machine (or from the carried bench.json).
set -u
root=$(pwd); o=${OUT:-/tmp/out}; b=/tmp/bench; mkdir -p "$b"
[ -x /tmp/kw-gpu-build/app/cli/kernelwright-cli ] || { STEP=build bash tests/gpu/run_on_gpu.sh "$root/.debs" /tmp/n-build > "$o/build.out" 2>&1 || { tail -20 "$o/build.out"; exit 1; }; }
[ -f "$b/bench.json" ] || { [ -f .scratch/bench-s15.json ] && cp .scratch/bench-s15.json "$b/bench.json"; }
[ -f "$b/gpu-bench.db" ] || { [ -f .scratch/gpu-bench-s15.db ] && cp .scratch/gpu-bench-s15.db "$b/gpu-bench.db"; }
t0=$(date +%s)
STEP=bench FINALISTS=1 RESUME="$b/bench.json" timeout ${LIMIT:-540} bash tests/gpu/run_on_gpu.sh "$root/.debs" "$b" 8 "$PROBLEMS" > "$b/call-$(date +%H%M%S).out" 2>&1
echo "rc $? after $(( $(date +%s) - t0 )) s"
tail -25 "$b/bench.log"
cd "$b" && tar czf /tmp/00.tgz bench.json bench.log gpu_probe.json nvidia-smi.txt call-*.out gpu-bench.db gpu-bench.db-wal gpu-bench.db-shm 2>/dev/null; mv /tmp/00.tgz "$o/"; ls -la "$o"
