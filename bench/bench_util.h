#pragma once
// Small measuring helpers shared by the benchmarks.
#include <cstdint>
#include <functional>
#include <vector>

namespace flightrec::bench {

// CPU time consumed by the calling thread, in ns.
int64_t thread_cpu_ns();
int64_t monotonic_ns();
// The q-quantile (0..1) of `values` (sorted in place).
double quantile(std::vector<double>& values, double q);

// Runs a benchmark's body: an exception is printed as "NAME: what" and exits 2, so a bad argument
// or a missing file reads as one line rather than a terminate().
int run_reporting_errors(const char* name, const std::function<int()>& body);

}  // namespace flightrec::bench
