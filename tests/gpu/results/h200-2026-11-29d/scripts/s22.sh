#!/usr/bin/env bash
# The H200 run of the model pipeline, written ahead. Started with setsid in
# one call, collected in the next ones back to back:
#   build; where the op record's call site comes from on this PyTorch
#   (tests/gpu/record_site_probe.py); model profile of rec_ranker (a region
#   once, device and host apart); extract -> search -> apply -> ab of
#   rec_ranker on the GPU (its regions as torch problems; ab with
#   torch.compile); then the torch-first corpus part.
#   tail /tmp/s22/s22.log; cp /tmp/s22/s22.tgz $OUT/
# Start it with
#   setsid nohup bash tests/gpu/results/h200-next/scripts/s22.sh >/dev/null 2>&1 </dev/null &
set -u
root=$(pwd); o=/tmp/s22; mkdir -p "$o"
exec > "$o/s22.log" 2>&1
T0=$(date +%s); stamp() { echo "== $(( $(date +%s) - T0 )) s: $*"; }
pack() { tar czf /tmp/s22.tgz -C /tmp s22 --exclude='*.so' --exclude='*.o' --exclude=build 2>/dev/null; mv /tmp/s22.tgz "$o/"; }
stamp build
STEP=build bash tests/gpu/run_on_gpu.sh "$root/.debs" /tmp/n-build > "$o/build.out" 2>&1 || { tail -30 "$o/build.out"; exit 1; }
. tests/gpu/built_env.sh
stamp site-probe
timeout 120 python3 tests/gpu/record_site_probe.py > "$o/site_probe.json" 2> "$o/site_probe.err"; echo "site-probe rc $?"
stamp model-profile
timeout 200 "$cli" model profile resources/models/rec_ranker/model.py --steps 20 --top 20 > "$o/model_profile.txt" 2>&1; echo "model-profile rc $?"
pack
M=resources/models/rec_ranker/model.py; D=$o/rr; W=$o/rr.db
stamp extract
timeout 300 "$cli" model extract $M --out $D --top ${TOP:-4} --steps 10 > "$o/extract.txt" 2>&1; echo "extract rc $?"
pack
stamp search
timeout 300 "$cli" --workspace $W model search $D --budget 8 > "$o/search.txt" 2>&1; echo "search rc $?"
pack
stamp apply
timeout 200 "$cli" --workspace $W model apply $D > "$o/apply.txt" 2>&1; echo "apply rc $?"
stamp ab
timeout 300 "$cli" model ab $D --rounds 10 > "$o/ab.txt" 2>&1; echo "ab rc $?"
stamp done
pack
