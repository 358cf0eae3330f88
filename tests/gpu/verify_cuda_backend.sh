#!/usr/bin/env bash
# Checks the cuda backend on a CUDA host: the reference against itself, the
# bundled seed, and the candidates in tests/gpu/cuda/ (two honest ones, the
# rest dishonest or broken), each with the status it must get. Prints a table
# and exits non-zero when any status differs. Run after
# `STEP=build tests/gpu/run_on_gpu.sh DEBS OUT` (it uses that build).
#
# usage: tests/gpu/verify_cuda_backend.sh OUT [NAME...]
#   NAME  only these candidates of tests/gpu/cuda/ (default: all of them)
set -uo pipefail
out=${1:?usage: verify_cuda_backend.sh OUT}
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/built_env.sh"
mkdir -p "$out"
db=$out/cuda-verify.db
problem=cuda_rmsnorm_fwd

summary() { # name expected json [rules]
  python3 - "$@" <<'PY'
import json, sys
name, expected, path = sys.argv[1:4]
rules = len(sys.argv) > 4 and sys.argv[4] == "rules"
try:
    r = json.load(open(path))
except Exception as e:
    print(f"{name:26} {expected:17} {'(no json)':17} {'-':>10} {'-':>7}  {e}")
    sys.exit(1)
status = r.get("status", "?")
median = "-"
if r.get("timing"):
    median = "%.1f us" % (sum(t["candidate"]["median"] for t in r["timing"]) * 1e6)
speedup = r.get("speedup") or 0
message = r.get("message", "").replace("\n", " ")[:150]
print(f"{name:26} {expected:17} {status:17} {median:>10} {speedup:>6.2f}x  {message}")
# ok-but-slow: correct at its honest speed (the cheat works many times over).
good = (status == "ok" and speedup < 0.8) if expected == "ok-but-slow" else status == expected
# With the static rules on, a cheat may be refused by them before it builds.
good = good or (rules and status == "sandbox_violation" and "constructs a kernel may not use" in r.get("message", ""))
sys.exit(0 if good else 1)
PY
}

failures=0
printf '%-26s %-17s %-17s %10s %7s  %s\n' candidate expected got median speedup message
"$cli" --db "$db" eval --problem "$problem" --reference --no-cache --json > "$out/cuda-reference.json" 2> "$out/cuda-reference.err"
summary reference ok "$out/cuda-reference.json" || failures=$((failures + 1))
"$cli" --db "$db" eval --problem "$problem" --seed block_per_row --param VEC=4 --param THREADS=256 --no-cache --json \
  > "$out/cuda-seed.json" 2> "$out/cuda-seed.err"
summary seed ok "$out/cuda-seed.json" || failures=$((failures + 1))
# Broken and honest candidates, then the dishonest ones (each says what it
# expects on its first line), the latter also without the static rules: the
# judge's process boundary must hold on its own.
cases=(default_stream:ok side_stream:ok overwrites_input:wrong_answer skips_tail:wrong_answer past_end:wrong_answer
       hangs:timeout illegal_address:runtime_error bad_launch:runtime_error does_not_build:compile_error)
for f in "$root"/tests/gpu/cuda/*.cu; do
  expect=$(sed -n '1s|^// expect: \([a-z_-]*\)$|\1|p' "$f")
  [ -n "$expect" ] && cases+=("$(basename "$f" .cu):$expect")
done
only=" ${*:2} "
for pair in "${cases[@]}"; do
  name=${pair%%:*}
  [ "$only" = "  " ] || [[ $only == *" $name "* ]] || continue
  expected=${pair#*:}
  runs=("")
  ruled=exact
  head -1 "$root/tests/gpu/cuda/$name.cu" | grep -q '^// expect:' && { runs+=(--no-static-rules); ruled=rules; }
  for rules in "${runs[@]}"; do
    label=$name${rules:+ (no rules)}
    file=$out/cuda-$name${rules:+-norules}
    "$cli" --db "$db" eval --problem "$problem" --candidate "$root/tests/gpu/cuda/$name.cu" --no-cache --json --call-timeout 5 $rules \
      > "$file.json" 2> "$file.err"
    summary "$label" "$expected" "$file.json" "${rules:-$ruled}" || failures=$((failures + 1))
  done
done
echo "verify_cuda_backend: $failures unexpected status(es)"
exit $((failures > 0))
