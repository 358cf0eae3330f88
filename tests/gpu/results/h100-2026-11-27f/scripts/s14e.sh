#!/usr/bin/env bash
# The 1 ms lead: the torch judge's cheats and references (judge_checks), and
# twelve KernelBench problems (launch-heavy level 1, four of level 2) as a
# reference-against-itself suite with four workers.
set -u
root=$(pwd); o=${OUT:-/tmp/out}; mkdir -p "$o/r"
[ -x /tmp/kw-gpu-build/app/cli/kernelwright-cli ] || { STEP=build bash tests/gpu/run_on_gpu.sh "$root/.debs" /tmp/n-build > "$o/r/build.out" 2>&1 || { tail -20 "$o/r/build.out"; exit 1; }; }
. tests/gpu/built_env.sh
[ -d /tmp/kb/level1 ] || tar xzf .scratch/kb-imported.tgz -C /tmp
CUDA_VISIBLE_DEVICES=0 PARTS=torch timeout 200 bash tests/gpu/judge_checks.sh /tmp/checks > "$o/r/checks.out" 2>&1
grep -E "^candidate|^reference|^seed|^first|^forges|^replays|verify_torch" "$o/r/checks.out"
rm -rf /tmp/sel && mkdir -p /tmp/sel
for p in kb_100_hingeloss kb_96_huberloss kb_88_mingptnewgelu kb_93_masked_cumsum kb_36_rmsnorm_ kb_24_logsoftmax kb_98_kldivloss kb_23_softmax; do cp -r /tmp/kb/level1/$p /tmp/sel/; done
for p in kb_12_gemm_multiply_leakyrelu kb_14_gemm_divide_sum_scaling kb_18_matmul_sum_max_avgpool_logsumexp_logsumexp kb_1_conv2d_relu_biasadd; do cp -r /tmp/kb/level2/$p /tmp/sel/l2_$p; done
timeout ${SUITE_S:-300} "$cli" --db /tmp/sel.db suite run /tmp/sel --mode reference --gpus 0,0,0,0 --sandbox required --time-budget 1.0 --json "$o/r/sel.json" > "$o/r/sel.log" 2>&1
echo "suite rc $?"; grep -E ': ok|: [a-z_]+ ' "$o/r/sel.log" | head -20; tail -25 "$o/r/sel.log"
cd "$o" && tar czf /tmp/00.tgz r && rm -rf r && mv /tmp/00.tgz "$o/"
