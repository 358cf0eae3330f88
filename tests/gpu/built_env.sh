# Sourced by the tests/gpu scripts that run after `STEP=build
# tests/gpu/run_on_gpu.sh DEBS OUT`: the CLI and GPU probe that build made (in
# the folders run_on_gpu.sh builds into), and the carried Debian packages'
# libraries and bubblewrap on the paths.
cli=/tmp/kw-gpu-build/app/cli/kernelwright-cli
gpu_probe=/tmp/kw-gpu-build/gpu_probe
export LD_LIBRARY_PATH=/tmp/kw-prefix/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PATH=/tmp/kw-prefix/usr/bin:$PATH # bubblewrap: the scripts run with --sandbox required
