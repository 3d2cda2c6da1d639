// Loads container/bpf/cfs_throttle.bpf.c from the skeleton embedded at build time, attaches it and
// reads its ring buffer.
#if FLIGHTREC_HAVE_EBPF
#include "throttle_program.h"

#include <cerrno>
#include <cstring>

#include "cfs_throttle.skel.h"
#include "flightrec/ebpf/libbpf_errors.h"

namespace flightrec::container::detail {

Result<std::unique_ptr<ThrottleProgram>> ThrottleProgram::open() {
  ebpf::capture_libbpf_messages();
  std::unique_ptr<ThrottleProgram> program(new ThrottleProgram());
  program->skeleton_ = cfs_throttle_bpf::open();
  if (program->skeleton_ == nullptr) {
    return Error{ebpf::describe_libbpf_failure("opening the BPF object cfs_throttle.bpf.o", errno)};
  }
  if (const int code = cfs_throttle_bpf::load(program->skeleton_); code != 0) {
    return Error{
        ebpf::describe_libbpf_failure("loading the BPF program of cfs_throttle.bpf.o", code)};
  }
  if (const int code = cfs_throttle_bpf::attach(program->skeleton_); code != 0) {
    return Error{ebpf::describe_libbpf_failure(
        "attaching BPF program throttle_switch (tp_btf/sched_switch)", code)};
  }
  program->ring_ = ring_buffer__new(bpf_map__fd(program->skeleton_->maps.events), on_event,
                                    program.get(), nullptr);
  if (program->ring_ == nullptr) {
    return Error{ebpf::describe_libbpf_failure("opening BPF ring buffer events", errno)};
  }
  return program;
}

ThrottleProgram::~ThrottleProgram() {
  ring_buffer__free(ring_);
  if (skeleton_ != nullptr) cfs_throttle_bpf::destroy(skeleton_);  // detaches, then frees the maps
}

int ThrottleProgram::on_event(void* context, void* data, size_t size) {
  auto* program = static_cast<ThrottleProgram*>(context);
  // Every record is one whole event; a shorter one would be a program/reader mismatch.
  if (size < sizeof(flightrec_throttle_event)) return 0;
  std::memcpy(&program->sink_->emplace_back(), data, sizeof(flightrec_throttle_event));
  return 0;
}

Status ThrottleProgram::consume(std::vector<flightrec_throttle_event>& out) {
  sink_ = &out;
  const int result = ring_buffer__consume(ring_);
  sink_ = nullptr;
  if (result < 0)
    return Error{ebpf::describe_libbpf_failure("reading BPF ring buffer events", result)};
  return {};
}

// Both counters are written by the program on any CPU; the skeleton maps them into our memory.
uint64_t ThrottleProgram::dropped() const noexcept {
  return __atomic_load_n(&skeleton_->bss->dropped, __ATOMIC_RELAXED);
}

uint64_t ThrottleProgram::untracked() const noexcept {
  return __atomic_load_n(&skeleton_->bss->untracked, __ATOMIC_RELAXED);
}

}  // namespace flightrec::container::detail
#endif
