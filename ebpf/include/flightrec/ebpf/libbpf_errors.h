#pragma once
// libbpf explains a failure (the verifier's complaint, the program's name) only through its print
// callback. Both BPF loaders route that callback into our log and put its last warning into the
// error they return, so a failed load says why in one line.
#include <string>
#include <string_view>

namespace flightrec::ebpf {

// Routes libbpf's messages to the debug log (never raw to stderr) and forgets the last warning;
// call before opening a skeleton.
void capture_libbpf_messages();

// "<step>: <strerror(code)> (libbpf: <its last warning>)", the warning part only when there is one.
std::string describe_libbpf_failure(std::string_view step, int code);

}  // namespace flightrec::ebpf
