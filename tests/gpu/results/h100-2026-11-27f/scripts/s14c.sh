#!/usr/bin/env bash
# kb_33 with the first calls alternating (x3), kb_76 and kb_38 once.
set -u
root=$(pwd); o=${OUT:-/tmp/out}; mkdir -p "$o"
[ -x /tmp/kw-gpu-build/app/cli/kernelwright-cli ] || { STEP=build bash tests/gpu/run_on_gpu.sh "$root/.debs" /tmp/n-build > "$o/build.out" 2>&1 || { tail -20 "$o/build.out"; exit 1; }; }
. tests/gpu/built_env.sh
git log --oneline -1
[ -d /tmp/kb/level1 ] || tar xzf .scratch/kb-imported.tgz -C /tmp
L1=/tmp/kb/level1
REPEATS=${R33:-3} timeout 200 bash tests/gpu/reference_repeats.sh "$o/kb33" $L1/kb_33_batchnorm
REPEATS=1 timeout 120 bash tests/gpu/reference_repeats.sh "$o/kbx" $L1/kb_76_conv_standard_1d_dilated_strided__ $L1/kb_38_l1norm_
rm -f "$o"/*/repeats.db
cd "$o" && tar czf /tmp/s14c.tgz --exclude=s14c.tgz . && mv /tmp/s14c.tgz "$o/"
