#pragma once
// Runs code as a process started without some capabilities would, in a forked child so that the
// test process keeps its own.
#include <functional>
#include <initializer_list>
#include <string>

namespace flightrec::testing {

// What `run` returns in a child whose effective set lacks `dropped` (CAP_BPF, ...: numbers of
// <linux/capability.h>), or "setup failed" when the child could not drop them.
std::string in_child_without(std::initializer_list<int> dropped,
                             const std::function<std::string()>& run);

}  // namespace flightrec::testing
