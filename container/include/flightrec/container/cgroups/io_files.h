#pragma once
// A container's block I/O per device: v2's io.stat, or v1's blkio.throttle files, which count
// every bio the group issued whatever the I/O scheduler (the blkio.bfq.* files count only under
// BFQ).
#include <string_view>

#include "flightrec/common/result.h"
#include "flightrec/container/cgroups/cgroup_stats.h"

namespace flightrec::container {

// io.stat: one "<major>:<minor> rbytes=.. wbytes=.. rios=.. wios=.. dbytes=.. dios=.." line per
// device. Other keys (iocost's, iolatency's) are skipped whatever their values; an empty file is
// no devices. An error names the line whose device or wanted value is malformed.
Result<IoStats> parse_io_stat(std::string_view text);

// v1 blkio.throttle.io_service_bytes_recursive and io_serviced_recursive (or their non-recursive
// siblings, same format): "<major>:<minor> <Read|Write|Sync|Async|Discard|Total> <n>" lines and a
// last "Total <n>". Read, Write and Discard are kept, bytes from the first file and operations
// from the second, merged by device in the order the bytes file lists them.
Result<IoStats> parse_blkio_throttle(std::string_view service_bytes, std::string_view serviced);

}  // namespace flightrec::container
