#!/usr/bin/env bash
# A judge's precision on given problems: each problem's reference evaluated
# against itself REPEATS times, one evaluation at a time, and a line per
# evaluation with its speedup (1.00 when all is well), its 95 % interval,
# the rounds it got of those planned, and the calls' scatter. Run after
# `STEP=build tests/gpu/run_on_gpu.sh DEBS OUT` (or with a CLI built here:
# CLI=build/app/cli/kernelwright-cli). Each evaluation's JSON lands in OUT.
#
# usage: tests/gpu/reference_repeats.sh OUT PROBLEM...
#   PROBLEM  a problem folder or a bundled problem's name
#   REPEATS (environment, default 3), TIME_BUDGET (seconds, default 1.0),
#   EVAL_ARGS (environment): more eval options, as "--no-compile-baseline"
set -uo pipefail
out=${1:?usage: reference_repeats.sh OUT PROBLEM...}
shift
[ $# -gt 0 ] || { echo "usage: reference_repeats.sh OUT PROBLEM..." >&2; exit 2; }
if [ -n "${CLI:-}" ]; then cli=$CLI; else . "$(dirname "$0")/built_env.sh"; fi
mkdir -p "$out"
for problem in "$@"; do
  for i in $(seq "${REPEATS:-3}"); do
    name="$(basename "$problem")-$i"
    t0=$(date +%s)
    # shellcheck disable=SC2086 # EVAL_ARGS is a list of options
    "$cli" --db "$out/repeats.db" eval --problem "$problem" --reference --json --no-cache --sandbox required \
      --time-budget "${TIME_BUDGET:-1.0}" ${EVAL_ARGS:-} > "$out/$name.json" 2> "$out/$name.err"
    python3 - "$out/$name.json" "$name" $(( $(date +%s) - t0 )) <<'PY' || tail -3 "$out/$name.err"
import json, sys
d = json.load(open(sys.argv[1]))
name, wall = sys.argv[2], sys.argv[3]
if not d.get("timing"):
    print(f"{name:36s} {d.get('status')}: {d.get('message', '')[:100]}")
for t in d.get("timing") or []:
    c, b = t.get("candidate", {}), (t.get("baselines") or [{}])[0]
    lo, hi = t.get("speedup_interval") or (0, 0)
    print(f"{name:36s} {t.get('shape', '')[:14]:14s} {t.get('speedup', 0):.3f}x  [{lo:.3f}, {hi:.3f}]  "
          f"{t.get('reps')} of {t.get('reps_planned', '?')} rounds  batch {t.get('batch', 1)}  "
          f"CV {c.get('cv', 0):.2f}/{b.get('cv', 0):.2f}  {c.get('median', 0) * 1e3:.3f} ms  {wall} s")
PY
  done
done
