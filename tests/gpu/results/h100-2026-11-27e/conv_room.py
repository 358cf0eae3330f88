# Does the free device memory at a 1-D convolution's first call decide its
# speed (KernelBench level 1, conv_standard_1d_dilated_strided)? A hog process
# holds HOG GiB; this one then builds the conv, calls it, and times it; then
# the hog grows by GROW GiB and the conv is timed again (a re-search on OOM?).
import os, sys, time, subprocess, torch
def hog(gib):
    return subprocess.Popen([sys.executable, "-c", f"import torch,time,sys; x=torch.empty({int(gib*2**30)}, dtype=torch.uint8, device='cuda'); torch.cuda.synchronize(); print('held', flush=True); sys.stdin.read()"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
def wait(p): assert p.stdout.readline().strip() == "held"
def timeit(m, x, n=10):
    e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    torch.cuda.synchronize(); e0.record()
    for _ in range(n): y = m(x); del y
    e1.record(); torch.cuda.synchronize(); return e0.elapsed_time(e1) / n
for held in [float(a) for a in sys.argv[1].split(",")]:
    h = hog(held) if held else None
    if h: wait(h)
    free0 = torch.cuda.mem_get_info()[0] / 2**30
    m = torch.nn.Conv1d(64, 128, 3, stride=3, dilation=4, bias=False).cuda()
    x = torch.rand(64, 64, 524280, device="cuda")
    with torch.no_grad():
        y = m(x); torch.cuda.synchronize(); del y
        t1 = timeit(m, x)
        torch.cuda.empty_cache(); g = max(0.5, torch.cuda.mem_get_info()[0] / 2**30 - 7.0); grow = hog(g); wait(grow)
        free1 = torch.cuda.mem_get_info()[0] / 2**30
        torch.cuda.empty_cache()
        try:
            t2 = timeit(m, x)
        except Exception as e:
            t2 = float("nan"); print("second:", str(e)[:100])
        grow.kill(); grow.wait()
        t3 = timeit(m, x)
    print(f"hog {held:5.1f} GiB: free {free0:5.1f} GiB at first call: {t1:7.2f} ms; hog +{g:.1f} (free {free1:5.1f}) {t2:7.2f} ms; after {t3:7.2f} ms; reserved {torch.cuda.memory_reserved()/2**30:.1f} GiB", flush=True)
    del m, x; torch.cuda.empty_cache()
    if h: h.kill(); h.wait()
