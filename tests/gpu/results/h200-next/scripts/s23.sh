#!/usr/bin/env bash
# The model pipeline on the H200 with the bundled GPU problems (after the
# record's call-site probe and rec_ranker's profile): rec_ranker's
# regions matched by behaviour to gpu_mbdt, gpu_mapid, gpu_dwconv1d_silu,
# gpu_layernorm (torch problems with Triton seeds), searched, swapped in and
# timed A/B against eager and torch.compile. TOP, BUDGET, ROUNDS set the size.
#   tail /tmp/s23/s23.log; cp /tmp/s23/s23.tgz $OUT/
# Start it with
#   setsid nohup bash tests/gpu/results/h200-next/scripts/s23.sh >/dev/null 2>&1 </dev/null &
set -u
root=$(pwd); o=/tmp/s23; mkdir -p "$o"
exec > "$o/s23.log" 2>&1
T0=$(date +%s); stamp() { echo "== $(( $(date +%s) - T0 )) s: $*"; }
pack() { tar czf /tmp/s23.tgz -C /tmp s23 --exclude='*.so' --exclude='*.o' --exclude=build --exclude='*.db*' 2>/dev/null; mv /tmp/s23.tgz "$o/"; }
stamp build
STEP=build bash tests/gpu/run_on_gpu.sh "$root/.debs" /tmp/n-build > "$o/build.out" 2>&1 || { tail -30 "$o/build.out"; exit 1; }
. tests/gpu/built_env.sh
stamp site-probe
timeout 120 python3 tests/gpu/record_site_probe.py > "$o/site_probe.json" 2> "$o/site_probe.err"; echo "site-probe rc $?"
stamp model-profile
timeout 200 "$cli" model profile resources/models/rec_ranker/model.py --steps 20 --top 12 > "$o/model_profile.txt" 2>&1; echo "model-profile rc $?"
M=resources/models/rec_ranker/model.py; D=$o/rr; W=$o/rr.db
stamp extract
timeout 200 "$cli" model extract $M --out $D --top ${TOP:-6} --steps 5 > "$o/extract.txt" 2>&1; echo "extract rc $?"
pack
stamp search
timeout ${SEARCH_S:-600} "$cli" --workspace $W model search $D --budget ${BUDGET:-16} > "$o/search.txt" 2>&1; echo "search rc $?"
pack
stamp apply
timeout 200 "$cli" --workspace $W model apply $D > "$o/apply.txt" 2>&1; echo "apply rc $?"
pack
stamp ab
timeout 300 "$cli" model ab $D --rounds ${ROUNDS:-10} > "$o/ab.txt" 2>&1; echo "ab rc $?"
"$cli" export report $D --out "$o/model.html" > /dev/null 2>&1
stamp done
pack
