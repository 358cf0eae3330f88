# The torch judge's Nsight Compute pass and the profile/ folder it writes,
# once every runner is gone. Plain Python: the profiled call itself is
# torch_profile_call.py, run under ncu.
import os
import subprocess
import sys

SRC = os.path.dirname(os.path.abspath(__file__))
JOB = os.path.dirname(SRC)


def run_ncu(job, files, notes):
    """Nsight Compute on one call of the candidate at the last timing shape
    (torch_profile_call.py; its warm-up calls are outside the profiled range),
    after every runner is gone and while this job still holds the timing lock:
    the raw metrics of up to `ncu_kernels` kernels, as profile/ncu.csv."""
    ncu = os.environ.get("KW_NCU", "")  # run.sh looked for it (ncuLookupScript)
    if not ncu:
        notes["ncu"] = ("ncu (Nsight Compute) is not on this host: not in KW_NCU, on PATH, or in the bin/ of CUDA_HOME or of "
                        "/usr/local/cuda (install it, set KW_NCU, or profile at the roofline level)")
        return
    cmd = [ncu, "--csv", "--page", "raw", "--metrics", job["ncu_metrics"], "--profile-from-start", "off", "--target-processes", "all",
           "--launch-count", str(int(job.get("ncu_kernels", 16))), sys.executable, os.path.join(SRC, "torch_profile_call.py")]
    env = {k: v for k, v in os.environ.items() if k not in ("KW_TIMING_LOCK_FD", "PYTHONPATH")}
    limit = float(job.get("ncu_timeout_s", 300))
    try:
        proc = subprocess.run(cmd, cwd=JOB, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              timeout=limit, start_new_session=True)
    except subprocess.TimeoutExpired:
        notes["ncu"] = f"ncu did not finish within {limit:.0f} s (a kernel replayed for every metric pass; set a longer ncu timeout)"
        return
    except OSError as e:
        notes["ncu"] = f"ncu could not start: {e}"
        return
    out = proc.stdout[: 8 << 20].decode("utf-8", "replace")
    err = (proc.stderr[-4000:] + proc.stdout[-4000:]).decode("utf-8", "replace")
    if "ERR_NVGPUCTRPERM" in out + err:
        notes["ncu"] = ("this host restricts the GPU's performance counters to administrators (ERR_NVGPUCTRPERM): run the jobs as "
                        "root, or load the nvidia module with NVreg_RestrictProfilingToAdminUsers=0")
        return
    if '"ID",' not in out:
        lines = [ln for ln in err.splitlines() if ln.strip()][-6:]
        notes["ncu"] = f"ncu profiled no kernel (exit status {proc.returncode}): " + " | ".join(lines)[-1500:]
        return
    files["ncu.csv"] = out


def write_profile(files, notes):
    """profile/: made anew here, once no runner is left to write into it."""
    import shutil

    d = os.path.join(JOB, "profile")
    shutil.rmtree(d, ignore_errors=True)
    if not files and not notes:
        return
    os.makedirs(d, exist_ok=True)
    entries = dict(files)
    for tool, why in notes.items():
        entries[f"unavailable-{tool}.txt"] = why + "\n"
    for name, text in entries.items():
        fd = os.open(os.path.join(d, name), os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
        with os.fdopen(fd, "w") as f:
            f.write(text)
