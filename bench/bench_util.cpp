#include "bench_util.h"

#include <time.h>

#include <algorithm>
#include <cstdio>
#include <exception>

namespace flightrec::bench {
namespace {
int64_t clock_ns(clockid_t clock) {
  timespec ts{};
  clock_gettime(clock, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}
}  // namespace

int64_t thread_cpu_ns() { return clock_ns(CLOCK_THREAD_CPUTIME_ID); }
int64_t monotonic_ns() { return clock_ns(CLOCK_MONOTONIC); }

double quantile(std::vector<double>& values, double q) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const auto index = static_cast<size_t>(q * static_cast<double>(values.size() - 1));
  return values[index];
}

int run_reporting_errors(const char* name, const std::function<int()>& body) {
  try {
    return body();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", name, e.what());
    return 2;
  }
}

}  // namespace flightrec::bench
