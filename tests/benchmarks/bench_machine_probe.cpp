// Prints how stable the machine probe's DRAM figure is on this host: N
// independent one-core probes (default 3), their values, mean and CV. The
// profiling acceptance asks for CV < 10% over 3 probes.
//   bench_machine_probe [N]
#include "machine/machine_probe.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
    const int n = argc > 1 ? std::max(2, std::atoi(argv[1])) : 3;
    std::vector<double> v;
    for (int i = 0; i < n; ++i) {
        v.push_back(kw::machine::probeDramBandwidth(1));
        std::printf("probe %d: %.1f GB/s\n", i + 1, v.back());
        std::fflush(stdout);
    }
    double mean = 0;
    for (double x : v) mean += x;
    mean /= n;
    double var = 0;
    for (double x : v) var += (x - mean) * (x - mean);
    const double cv = std::sqrt(var / (n - 1)) / mean;
    std::printf("DRAM (1 core): mean %.1f GB/s over %d probes, CV %.1f%% (target < 10%%)\n", mean, n, cv * 100);
    return 0;
}
