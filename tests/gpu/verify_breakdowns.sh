#!/usr/bin/env bash
# Checks on a CUDA host that a correct GPU candidate carries its per-kernel
# breakdown (profile/breakdown.json) on both GPU backends: the torch judge's
# (PyTorch's profiler) and the cuda judge's (CUPTI, in the candidate's
# runner). Prints each breakdown's source, launches, device time and longest
# entry, or the unavailable-*.txt that says why there is none; with PROFILE=ncu
# also each one's Nsight Compute CSV (profile/ncu.csv: kernels profiled, the
# first one's name). Exits non-zero when one is missing. Run after
# `STEP=build tests/gpu/run_on_gpu.sh DEBS OUT`.
#
# usage: tests/gpu/verify_breakdowns.sh OUT
set -uo pipefail
out=${1:?usage: verify_breakdowns.sh OUT}
. "$(dirname "$0")/built_env.sh"
mkdir -p "$out"
failures=0
for pair in gpu_softmax:triton cuda_rmsnorm_fwd:block_per_row; do
  problem=${pair%%:*}
  seed=${pair#*:}
  # The job dirs must be reachable by the sandbox user: OUT may sit under a
  # home it cannot search, so they live under /tmp and are copied to OUT.
  jobs=${JOBS_ROOT:-/tmp/kw-gpu-jobs}/breakdowns-$problem
  rm -rf "$jobs" && mkdir -p "$jobs" && chmod o+x "$(dirname "$jobs")" "$jobs"
  "$cli" --db "$out/breakdowns.db" eval --problem "$problem" --seed "$seed" --no-cache --json --sandbox "${SANDBOX:-required}" \
    --time-budget 0.3 --keep-job --jobs-dir "$jobs" --profile "${PROFILE:-none}" > "$out/$problem.json" 2> "$out/$problem.err"
  python3 - "$problem" "$out/$problem.json" "$jobs" "${PROFILE:-none}" <<'PY' || failures=$((failures + 1))
import glob, json, os, sys
problem, result, jobs, level = sys.argv[1:5]
try:
    r = json.load(open(result))
    status, message = r.get("status", "?"), (r.get("message") or "")[:300]
except Exception as e:
    print(f"{problem:18} no result: {e}")
    sys.exit(1)
dirs = glob.glob(os.path.join(jobs, "*", "profile"))
b = os.path.join(dirs[0], "breakdown.json") if dirs else ""
if status != "ok" or not b or not os.path.exists(b):
    why = [open(f).read().strip() for f in glob.glob(os.path.join(jobs, "*", "profile", "unavailable-*.txt"))]
    print(f"{problem:18} {status:10} no breakdown{': ' + ' | '.join(why) if why else ''} ({message})")
    sys.exit(1)
d = json.load(open(b))
top = d["kernels"][0] if d["kernels"] else {"name": "-", "us": 0}
print(f"{problem:18} {status:10} source {d['source']:14} launches {d['launches']:3}  device {d['device_us']:8.1f} us  "
      f"longest {top['name'][:48]} ({top['us']:.1f} us)")
if level == "ncu":
    csv = os.path.join(dirs[0], "ncu.csv")
    if not os.path.exists(csv):
        why = [open(f).read().strip() for f in glob.glob(os.path.join(dirs[0], "unavailable-ncu.txt"))]
        print(f"{problem:18} no ncu.csv{': ' + ' | '.join(why) if why else ''}")
        sys.exit(1)
    rows = [ln for ln in open(csv) if ln.startswith('"') and not ln.startswith('"ID"')]
    print(f"{problem:18} ncu.csv: {len(rows) - 1} kernel(s) (after the units row), first {rows[1][:80] if len(rows) > 1 else '-'}")
PY
done
echo "verify_breakdowns: $failures missing"
exit $((failures > 0))
