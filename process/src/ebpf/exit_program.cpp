// Loads process/bpf/exits.bpf.c from the skeleton embedded at build time, attaches it and reads
// its ring buffer.
#if FLIGHTREC_HAVE_EBPF
#include "exit_program.h"

#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstddef>
#include <cstring>

#include "exits.skel.h"
#include "flightrec/ebpf/libbpf_errors.h"

namespace flightrec::process::detail {

Result<std::unique_ptr<ExitProgram>> ExitProgram::open() {
  ebpf::capture_libbpf_messages();
  std::unique_ptr<ExitProgram> program(new ExitProgram());
  program->skeleton_ = exits_bpf::open();
  if (program->skeleton_ == nullptr) {
    return Error{ebpf::describe_libbpf_failure("opening the BPF object exits.bpf.o", errno)};
  }
  // The kernel's PAGE_COUNTER_MAX (include/linux/page_counter.h): what a cgroup without a memory
  // limit holds as its limit.
  program->skeleton_->rodata->unlimited_pages =
      static_cast<uint64_t>(LONG_MAX) / static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  if (const int code = exits_bpf::load(program->skeleton_); code != 0) {
    return Error{ebpf::describe_libbpf_failure("loading the BPF program of exits.bpf.o", code)};
  }
  if (const int code = exits_bpf::attach(program->skeleton_); code != 0) {
    return Error{ebpf::describe_libbpf_failure(
        "attaching BPF program process_exited (tp_btf/sched_process_exit)", code)};
  }
  program->ring_ = ring_buffer__new(bpf_map__fd(program->skeleton_->maps.events), on_event,
                                    program.get(), nullptr);
  if (program->ring_ == nullptr) {
    return Error{ebpf::describe_libbpf_failure("opening BPF ring buffer events", errno)};
  }
  return program;
}

ExitProgram::~ExitProgram() {
  ring_buffer__free(ring_);
  if (skeleton_ != nullptr) exits_bpf::destroy(skeleton_);  // detaches, then frees the maps
}

int ExitProgram::on_event(void* context, void* data, size_t size) {
  auto* program = static_cast<ExitProgram*>(context);
  // Every record is one whole event; a shorter one would be a program/reader mismatch.
  if (size < sizeof(flightrec_exit_event)) return 0;
  ExitRecord& record = program->sink_->emplace_back();
  std::memcpy(&record.event, data, sizeof(record.event));
  if ((record.event.flags & FLIGHTREC_EXIT_OOM_VICTIM) != 0 &&
      size >= sizeof(flightrec_oom_exit_event)) {
    flightrec_oom_exit_event oom;  // rare: copied whole, read by name
    std::memcpy(&oom, data, sizeof(oom));
    record.memory_cgroup.assign(oom.memory_cgroup,
                                strnlen(oom.memory_cgroup, FLIGHTREC_CGROUP_PATH_BYTES));
    record.limit_pages = oom.limit_pages;
    record.limit_level = oom.limit_level;
  }
  return 0;
}

Status ExitProgram::consume(std::vector<ExitRecord>& out) {
  sink_ = &out;
  const int result = ring_buffer__consume(ring_);
  sink_ = nullptr;
  if (result < 0) {
    return Error{ebpf::describe_libbpf_failure("reading BPF ring buffer events", result)};
  }
  return {};
}

uint64_t ExitProgram::dropped() const noexcept {
  // Written by the program on any CPU; the skeleton maps the counter into our memory.
  return __atomic_load_n(&skeleton_->bss->dropped, __ATOMIC_RELAXED);
}

}  // namespace flightrec::process::detail
#endif
