#pragma once
// libbpf explains a failure (the verifier's complaint, the program's name) only through its print
// callback. Both BPF loaders route that callback into our log and put its last warning into the
// error they return, so a failed load says why in one line.
#include <linux/capability.h>

#include <initializer_list>
#include <string>
#include <string_view>

namespace flightrec::ebpf {

// Routes libbpf's messages to the debug log (never raw to stderr) and forgets the last warning;
// call before opening a skeleton.
void capture_libbpf_messages();

// Loading and attaching flightrec's tracing programs takes CAP_BPF and CAP_PERFMON; its cgroup
// socket programs CAP_NET_ADMIN as well.
inline constexpr std::initializer_list<int> kTracingCapabilities = {CAP_BPF, CAP_PERFMON};
inline constexpr std::initializer_list<int> kNetworkCapabilities = {CAP_BPF, CAP_PERFMON,
                                                                    CAP_NET_ADMIN};

// For a refusal (`code` EPERM or EACCES, either sign), which of `needs` the process lacks:
// ": missing CAP_BPF and CAP_PERFMON", or, when it holds them all, that something else refused.
// "" for any other code.
std::string permission_note(int code, std::initializer_list<int> needs);

// "<step>: <strerror(code)><permission_note> (libbpf: <its last warning>)", the warning part only
// when there is one.
std::string describe_libbpf_failure(std::string_view step, int code,
                                    std::initializer_list<int> needs = kTracingCapabilities);

}  // namespace flightrec::ebpf
