#!/usr/bin/env python3
"""Where a torch job's timed calls went, per runner, from its result.json
(`eval --keep-job`): the call on the judge's clock, its answer and settle
parts, the runner's own account (set-up, launches, synchronize, export, the
first set's and the other sets' device time) and what is left beyond the
empty call and the device's time (`fixed`), then the job's phases, longest
first. A diagnostic for judging the judge; the workspace keeps the same
fields (TimingCase::clock).

usage: tests/gpu/judge_parts.py RESULT.json [...]"""
import json
import sys


def show(path):
    r = json.load(open(path))
    print(f"{path}: {r.get('status')} {(r.get('message') or '')[:160]}")
    for t in r.get("timing", []):
        if "call_parts" not in t:
            print(f"  shape {t.get('shape')}: no call parts (not a torch job, or an older judge)")
            continue
        b, e = t["batch"], t["empty_call_seconds"]
        print(f"  shape {t['shape']}: batch {b}, sets {t['input_sets']}, reps {t['reps']}, empty call {e * 1e6:.0f} us, "
              f"overhead taken off {t.get('call_overhead_seconds', 0) * 1e6:.0f} us; candidate {t['candidate']['median'] * 1e6:.1f} us, "
              + ", ".join(f"{x['name']} {x['median'] * 1e6:.1f} us" for x in t["baselines"]))
        for name, p in t["call_parts"].items():
            told = p["runner_told"]
            call = p["answer"] + p["settle"]
            device = told[4] + (b - 1) * told[5]
            fixed = call - e - device
            print(f"    {name:14} call {call * 1e6:7.0f}  answer {p['answer'] * 1e6:7.0f}  settle {p['settle'] * 1e6:5.0f}  "
                  f"set-up {told[0] * 1e6:4.0f}  launches {told[1] * 1e6:6.0f}  sync {told[2] * 1e6:6.0f}  export {told[3] * 1e6:4.0f}  "
                  f"first set {told[4] * 1e6:6.1f}  others {told[5] * 1e6:6.1f}  fixed {fixed * 1e6:5.0f} ({fixed / b * 1e6:.1f}/set)"
                  + (f"  describe {told[6] * 1e6:5.0f}" if len(told) > 6 else ""))


    ps = r.get("phase_seconds") or {}
    if ps:
        print("  phases (s): " + ", ".join(f"{k} {v:.2f}" for k, v in sorted(ps.items(), key=lambda kv: -kv[1]) if isinstance(v, (int, float))))


for arg in sys.argv[1:] or sys.exit(__doc__):
    show(arg)
