#pragma once
// How the daemon's threads are scheduled, set by each thread on itself (Linux schedules threads,
// not processes: every thread has its own policy, and a new thread starts with its creator's).
// - The sampler runs SCHED_FIFO when permitted (sampler.realtime): a run queue full of ordinary
//   work then cannot delay its 1 ms deadlines, while it costs the workload only the sampler's
//   own few percent of a core.
// - The recorder, the process tier and the HTTP threads run SCHED_BATCH: see
//   make_calling_thread_batch. docs/DEPLOYMENT.md ("Scheduling") says what an operator grants.
#include "flightrec/common/result.h"

namespace flightrec::priority {

// Any SCHED_FIFO priority outranks every SCHED_OTHER/BATCH/IDLE task, which is all the sampler
// needs; 10 stays below threaded interrupt handlers (50), the kernel's per-CPU threads (99) and
// the priorities real-time applications use, so the sampler never delays any of them. Fixed: a
// higher value would buy the sampler nothing and could only hurt real real-time work.
inline constexpr int kSamplerFifoPriority = 10;

// Makes the calling thread SCHED_FIFO at kSamplerFifoPriority, reset to SCHED_OTHER in any child
// it forks. Needs CAP_SYS_NICE or an RLIMIT_RTPRIO of at least that priority. When refused the
// thread keeps its policy and the error says what the process lacks (a capability, a limit, a
// real-time budget), in words fit for the one warning the daemon logs; never throws for a refusal.
Status make_calling_thread_realtime();

// Makes the calling thread SCHED_BATCH at its current nice value. It keeps its fair share of CPU
// (nice 0 weight), so the recorder keeps up with the sampler and scrapes are answered on a busy
// machine, but a wake-up never preempts the task running on the CPU: our bookkeeping waits for
// the end of the workload's slice instead of interrupting it. Not SCHED_IDLE or nice 19: those
// starve under exactly the load that matters, the recorder's queue would overflow and frames be
// lost, and scrapes time out. Lowering a policy needs no
// privilege; returns false only if the kernel refused anyway (the thread then stays as it was).
bool make_calling_thread_batch() noexcept;

// Makes the calling thread nice 19: for a one-off job that may take as long as it needs (the
// incident store's start-up verification), unlike the threads above that must keep up. Raising
// one's own nice value needs no privilege; returns false if the kernel refused anyway (the
// thread then runs at its current priority).
bool make_calling_thread_lowest() noexcept;

}  // namespace flightrec::priority
