#!/usr/bin/env bash
# Checks the torch backend's judge on a CUDA host: the reference against
# itself, the bundled Triton seed, and the candidates in tests/gpu/torch/
# (honest, broken and dishonest; each names the status it must get on its
# first line), the dishonest ones also without the static rules: the process
# boundary must hold on its own. Prints a table and exits non-zero when any
# status differs. Run after `STEP=build tests/gpu/run_on_gpu.sh DEBS OUT`.
#
# usage: tests/gpu/verify_torch_backend.sh OUT [NAME...]
#   NAME  only these (reference, random_forward, seed, inline_cuda, written_cuda, or candidates of tests/gpu/torch/)
set -uo pipefail
out=${1:?usage: verify_torch_backend.sh OUT}
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/built_env.sh"
mkdir -p "$out"
db=$out/torch-verify.db
problem=gpu_softmax
sandbox=${SANDBOX:-required}

summary() { # name expected json [rules]
  python3 - "$@" <<'PY'
import json, sys
name, expected, path = sys.argv[1:4]
rules = len(sys.argv) > 4 and sys.argv[4] == "rules"
try:
    r = json.load(open(path))
except Exception as e:
    print(f"{name:34} {expected:16} {'(no json)':17} {'-':>10} {'-':>7} {'-':>7} {'-':>6}  {e}")
    sys.exit(1)
status = r.get("status", "?")
median, vs_compile = "-", None
if r.get("timing"):
    median = "%.1f us" % (sum(t["candidate"]["median"] for t in r["timing"]) * 1e6)
    c = [t.get("speedups", {}).get("torch.compile") for t in r["timing"]]
    vs_compile = c[0] if c and c[0] else None
speedup = r.get("speedup") or 0
wall = r.get("wall_seconds") or 0
message = r.get("message", "").replace("\n", " ")[:140]
print(f"{name:34} {expected:16} {status:17} {median:>10} {speedup:>6.3f}x {('%.2fx' % vs_compile) if vs_compile else '-':>7} {wall:>5.0f}s  {message}")
if expected == "ok-but-slow":
    good = status == "ok" and speedup < 0.8
elif expected == "matches-compile":
    good = status == "ok" and vs_compile is not None and vs_compile < 1.15
elif expected == "no-gain":
    # A cheat whose work is honest (a library call, about 1x): it gains
    # nothing, or it is charged for what it tried (never infra_error).
    good = (status == "ok" and speedup <= 1.05) or status in ("wrong_answer", "runtime_error", "timeout", "sandbox_violation")
elif expected == "ref-within-2pct":
    good = status == "ok" and abs(speedup - 1) <= 0.02
else:
    good = status in expected.split("|")
good = good or (rules and status == "sandbox_violation" and "constructs a kernel may not use" in r.get("message", ""))
sys.exit(0 if good else 1)
PY
}

failures=0
only=" ${*:2} "
want() { [ "$only" = "  " ] || [[ $only == *" $1 "* ]]; }
printf '%-34s %-16s %-17s %10s %7s %7s %6s  %s\n' candidate expected got median speedup "vs tc" wall message
if want reference; then
  for i in 1 2; do
    "$cli" --db "$db" eval --problem "$problem" --reference --no-cache --json --sandbox "$sandbox" --no-compile-baseline \
      > "$out/torch-reference-$i.json" 2> "$out/torch-reference-$i.err"
    summary "reference (run $i)" ref-within-2pct "$out/torch-reference-$i.json" || failures=$((failures + 1))
  done
fi
if want random_forward; then
  # A reference drawing random numbers in its forward, against itself: each
  # checked call starts from the same generator state.
  rm -rf "$out/random_forward"
  if "$cli" problem import "$root/tests/data/import/random_in_forward.py" --allow-random --out "$out/random_forward" > "$out/random-forward-import.log" 2>&1; then
    "$cli" --db "$db" eval --problem "$out/random_forward" --reference --no-cache --json --sandbox "$sandbox" --no-compile-baseline \
      > "$out/torch-random-forward.json" 2> "$out/torch-random-forward.err"
  fi
  summary "reference drawing in its forward" ok "$out/torch-random-forward.json" || failures=$((failures + 1))
fi
if want seed; then
  "$cli" --db "$db" eval --problem "$problem" --seed triton --no-cache --json --sandbox "$sandbox" > "$out/torch-seed.json" 2> "$out/torch-seed.err"
  summary "seed (with torch.compile)" ok "$out/torch-seed.json" || failures=$((failures + 1))
fi
if want inline_cuda; then
  # An honest control in CUDA C++ built by load_inline (ninja, nvcc) inside
  # the candidate's runner, under its seccomp filter.
  "$cli" --db "$db" eval --problem "$problem" --candidate "$root/tests/gpu/softmax_inline_cuda.py" --no-cache --json --compile-timeout 300 \
    --sandbox "$sandbox" --no-compile-baseline > "$out/torch-inline-cuda.json" 2> "$out/torch-inline-cuda.err"
  summary "inline CUDA (load_inline)" ok "$out/torch-inline-cuda.json" || failures=$((failures + 1))
fi
if want written_cuda; then
  # The same kind of kernel written to a .cu next to its module and built by
  # load() into a folder there: the runner may write in its own folder.
  "$cli" --db "$db" eval --problem "$problem" --candidate "$root/tests/gpu/softmax_written_cuda.py" --no-cache --json --compile-timeout 300 \
    --sandbox "$sandbox" --no-compile-baseline > "$out/torch-written-cuda.json" 2> "$out/torch-written-cuda.err"
  summary "CUDA written to its folder (load)" ok "$out/torch-written-cuda.json" || failures=$((failures + 1))
fi
# gpu_softmax forbids softmax (its policy: the candidate writes it). A cheat
# whose work is torch's own softmax, to show what its trick gains over an
# honest 1x, says "# problem: library" on its second line and runs on the
# same reference imported with the default policy (library ops allowed).
library=$out/library_softmax
"$cli" problem import "$root/resources/problems/gpu/$problem/reference.py" --out "$library" > "$out/library-import.log" 2>&1 \
  || { echo "verify_torch_backend: the library softmax problem did not import:"; cat "$out/library-import.log"; }
for f in "$root"/tests/gpu/torch/*.py; do
  name=$(basename "$f" .py)
  want "$name" || continue
  expected=$(sed -n '1s|^# expect: \([a-z_|-]*\)$|\1|p' "$f")
  [ -n "$expected" ] || continue
  on=$problem
  [ "$(sed -n 2p "$f")" = "# problem: library" ] && on=$library
  compile=(--no-compile-baseline)
  [ "$expected" = matches-compile ] && compile=()
  for rules in "" --no-static-rules; do
    label=$name${rules:+ (no rules)}
    file=$out/torch-$name${rules:+-norules}
    "$cli" --db "$db" eval --problem "$on" --candidate "$f" --no-cache --json --call-timeout 5 --compile-timeout 45 --sandbox "$sandbox" "${compile[@]}" $rules \
      > "$file.json" 2> "$file.err"
    summary "$label" "$expected" "$file.json" "${rules:-rules}" || failures=$((failures + 1))
  done
done
echo "verify_torch_backend: $failures unexpected status(es)"
exit $((failures > 0))
