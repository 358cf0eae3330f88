// expect: wrong_answer
// Returns at once on large calls and lets a background thread write the
// output: a harness that stops its clock when the call returns and reads the
// output later times nothing. Each call first waits for the previous call's
// work, so nothing overlaps; small (checked) calls are done inline.
#include <condition_variable>
#include <mutex>
#include <thread>
namespace {
struct Job {
    const float* x;
    const float* z;
    float* y;
    int64_t n;
    float a;
};
std::mutex lock;
std::condition_variable changed;
bool pending = false;
Job job;

void worker() {
    for (;;) {
        std::unique_lock<std::mutex> l(lock);
        changed.wait(l, [] { return pending; });
        const Job j = job;
        l.unlock();
        for (int64_t i = 0; i < j.n; ++i) j.y[i] = j.a * j.x[i] + j.z[i];
        l.lock();
        pending = false;
        changed.notify_all();
    }
}
} // namespace

void saxpy(const float* x, const float* z, float* y, int64_t N, float a) {
    if (N < 65536) {
        for (int64_t i = 0; i < N; ++i) y[i] = a * x[i] + z[i];
        return;
    }
    static const bool started = (std::thread(worker).detach(), true);
    (void)started;
    std::unique_lock<std::mutex> l(lock);
    changed.wait(l, [] { return !pending; });
    job = Job{x, z, y, N, a};
    pending = true;
    changed.notify_all();
}
