#pragma once
// The Linux capabilities this process holds (its effective set, read with capget directly: libcap
// is not a dependency), so that a refusal names what the process lacks, as a setcap line or a
// systemd AmbientCapabilities= would spell it.
#include <initializer_list>
#include <string>

namespace flightrec::capabilities {

// Whether capability `number` (CAP_BPF, CAP_SYS_NICE, ... of <linux/capability.h>) is effective.
bool holds(int number) noexcept;

// "CAP_BPF" for the capabilities this project needs, "capability N" for any other.
std::string name_of(int number);

// The names as a sentence lists them: "CAP_BPF and CAP_PERFMON", "CAP_BPF, CAP_PERFMON and
// CAP_NET_ADMIN".
std::string names_of(std::initializer_list<int> numbers);

// names_of those of `needed` that are not effective, in the order given; "" when every one is.
std::string missing(std::initializer_list<int> needed);

}  // namespace flightrec::capabilities
