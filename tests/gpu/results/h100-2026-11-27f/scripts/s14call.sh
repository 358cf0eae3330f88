#!/usr/bin/env bash
# Fourteenth session, one H100 (nvidia-h100-x1). PART=A (~480 s): build; the
# torch judge's cheats after 02ebb53 (equal device room), 2efb4d4 (block
# interval); host_path.py on the
# rmsnorm seeds (the host path a set against the device's); eval of the
# rmsnorm seeds at the bench's best params (runner_told: launches a set);
# kb_33 x2 and kb_76 with the compile baseline. PART=B (~300 s): the six
# level-3 outliers as a suite with four workers (block intervals).
set -u
root=$(pwd); o=${OUT:-/tmp/out}; mkdir -p "$o"
T0=$(date +%s); left() { echo $(( ${LIMIT:-585} - ($(date +%s) - T0) )); }
[ -x /tmp/kw-gpu-build/app/cli/kernelwright-cli ] || { STEP=build bash tests/gpu/run_on_gpu.sh "$root/.debs" /tmp/n-build > "$o/build.out" 2>&1 || { tail -20 "$o/build.out"; exit 1; }; }
. tests/gpu/built_env.sh
nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader; git log --oneline -1
[ -d /tmp/kb/level1 ] || tar xzf .scratch/kb-imported.tgz -C /tmp
P=resources/problems/gpu
if [ "${PART:-A}" = A ]; then
  CUDA_VISIBLE_DEVICES=0 PARTS=torch timeout 170 bash tests/gpu/judge_checks.sh /tmp/checks > "$o/checks.out" 2>&1
  grep -E "^candidate|^reference|^seed|^first|^forges|^replays|verify_torch" "$o/checks.out"
  for p in gpu_rmsnorm_fwd gpu_rmsnorm_bwd; do
    timeout 60 python3 tests/gpu/host_path.py $P/$p $P/$p/seeds/triton.py --calls 200 > "$o/host_path-$p.out" 2>&1; head -30 "$o/host_path-$p.out"
  done
  for pp in "gpu_rmsnorm_fwd BLOCK_N=1024 LAUNCH=jit NUM_STAGES=1 NUM_WARPS=16 ROWS=2" \
            "gpu_rmsnorm_bwd BLOCK_N=4096 DW=partials LAUNCH=direct NUM_WARPS=16 PROGS_PER_SM=2 ROWS=1"; do
    set -- $pp; p=$1; shift; args=(); for kv in "$@"; do args+=(--param "$kv"); done
    timeout 60 "$cli" --db /tmp/s14.db eval --problem $P/$p --seed triton "${args[@]}" --json --no-cache --sandbox required --time-budget 0.3 > "$o/eval-$p.json" 2> "$o/eval-$p.err"
    python3 tests/gpu/judge_parts.py "$o/eval-$p.json" | tail -12
  done
  B=$P/gpu_batch_event_truncate
  for scan in one blocks; do
    timeout 60 "$cli" --db /tmp/s14.db eval --problem $B --seed triton --param SCAN=$scan --json --no-cache --sandbox required --time-budget 0.3 > "$o/eval-bet-$scan.json" 2> "$o/eval-bet-$scan.err"
    python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(sys.argv[2], d['status'], d.get('speedup'), d['message'][:200], [round(t['candidate']['median']*1e6,1) for t in d.get('timing', [])])" "$o/eval-bet-$scan.json" $scan
  done
  L1=/tmp/kb/level1
  REPEATS=2 timeout 90 bash tests/gpu/reference_repeats.sh "$o/kb33" $L1/kb_33_batchnorm
  KW_JUDGE_CANDIDATE_FIRST=1 REPEATS=2 timeout $(( $(left) - 60 )) bash tests/gpu/reference_repeats.sh "$o/kb33-cf" $L1/kb_33_batchnorm
  REPEATS=1 timeout $(( $(left) - 10 )) bash tests/gpu/reference_repeats.sh "$o/kb76" $L1/kb_76_conv_standard_1d_dilated_strided__
  rm -f "$o"/*/repeats.db
else
  rm -rf /tmp/l3x && cp -r .scratch/l3x /tmp/l3x
  timeout $(( $(left) - 15 )) "$cli" --db /tmp/l3x.db suite run /tmp/l3x --mode reference --gpus 0,0,0,0 \
      --sandbox required --time-budget 1.0 --json "$o/l3x.json" > "$o/l3x.log" 2>&1
  echo "outliers rc $?"; grep -E ': ok|: [a-z_]+ ' "$o/l3x.log"; pkill -f torch_judge.py
  cp /tmp/l3x/suite-run-reference.jsonl "$o/l3x-run.jsonl"
fi
cd "$o" && tar czf /tmp/s14.tgz --exclude=s14.tgz . && mv /tmp/s14.tgz "$o/"
echo "left $(left) s"
