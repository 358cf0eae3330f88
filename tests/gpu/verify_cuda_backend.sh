#!/usr/bin/env bash
# Checks the cuda backend on a CUDA host: the reference against itself, the
# bundled seed, and the candidates in tests/gpu/cuda/ (two honest ones, the
# rest dishonest or broken), each with the status it must get. Prints a table
# and exits non-zero when any status differs. Run after
# `STEP=build tests/gpu/run_on_gpu.sh DEBS OUT` (it uses that build).
#
# usage: tests/gpu/verify_cuda_backend.sh OUT
set -uo pipefail
out=${1:?usage: verify_cuda_backend.sh OUT}
root=$(cd "$(dirname "$0")/../.." && pwd)
cli=/tmp/ks-gpu-build/app/cli/kernelsmith-cli
export LD_LIBRARY_PATH=/tmp/ks-prefix/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# bubblewrap from the carried packages: candidates run sandboxed.
export PATH=/tmp/ks-prefix/usr/bin:$PATH
mkdir -p "$out"
db=$out/cuda-verify.db
problem=cuda_rmsnorm_fwd

summary() { # name expected json
  python3 - "$@" <<'PY'
import json, sys
name, expected, path = sys.argv[1:4]
try:
    r = json.load(open(path))
except Exception as e:
    print(f"{name:18} {expected:14} {'(no json)':14} {'-':>10}  {e}")
    sys.exit(1)
status = r.get("status", "?")
median = "-"
if r.get("timing"):
    median = "%.1f us" % (sum(t["candidate"]["median"] for t in r["timing"]) * 1e6)
message = r.get("message", "").replace("\n", " ")[:150]
print(f"{name:18} {expected:14} {status:14} {median:>10}  {message}")
sys.exit(0 if status == expected else 1)
PY
}

failures=0
printf '%-18s %-14s %-14s %10s  %s\n' candidate expected got median message
"$cli" --db "$db" eval --problem "$problem" --reference --no-cache --json > "$out/cuda-reference.json" 2> "$out/cuda-reference.err"
summary reference ok "$out/cuda-reference.json" || failures=$((failures + 1))
"$cli" --db "$db" eval --problem "$problem" --seed block_per_row --param VEC=4 --param THREADS=256 --no-cache --json \
  > "$out/cuda-seed.json" 2> "$out/cuda-seed.err"
summary seed ok "$out/cuda-seed.json" || failures=$((failures + 1))
for pair in default_stream:ok side_stream:ok overwrites_input:wrong_answer skips_tail:wrong_answer past_end:wrong_answer \
            hangs:timeout illegal_address:runtime_error bad_launch:runtime_error does_not_build:compile_error; do
  name=${pair%%:*}
  expected=${pair#*:}
  "$cli" --db "$db" eval --problem "$problem" --candidate "$root/tests/gpu/cuda/$name.cu" --no-cache --json --call-timeout 5 \
    > "$out/cuda-$name.json" 2> "$out/cuda-$name.err"
  summary "$name" "$expected" "$out/cuda-$name.json" || failures=$((failures + 1))
done
echo "verify_cuda_backend: $failures unexpected status(es)"
exit $((failures > 0))
