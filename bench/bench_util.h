#pragma once
// Small measuring helpers shared by the benchmarks.
#include <cstdint>
#include <vector>

namespace flightrec::bench {

// CPU time consumed by the calling thread, in ns.
int64_t thread_cpu_ns();
int64_t monotonic_ns();
// The q-quantile (0..1) of `values` (sorted in place).
double quantile(std::vector<double>& values, double q);

}  // namespace flightrec::bench
