#include "process_codec.h"

#include <algorithm>
#include <array>
#include <limits>
#include <optional>
#include <string_view>
#include <tuple>
#include <type_traits>

#include "flightrec/store/process_block.h"

namespace flightrec::store::detail {

namespace {

using process::NetCounters;
using process::ProcessRow;
using process::SocketProtocol;
using process::SocketRow;

// The coded fields of each record, in mask-bit order: the ones that change most often first, so
// a typical mask fits in one varint byte. A field added to the data model must be added here
// (and to the names): the size checks below catch a forgotten one.
constexpr auto kFrameFields = std::make_tuple(
    &ProcessFrame::time_unix_ns, &ProcessFrame::processes_dropped, &ProcessFrame::unattributed);
constexpr std::array<std::string_view, 3> kFrameFieldNames{"time_unix_ns", "processes_dropped",
                                                           "unattributed"};

constexpr auto kRowFields = std::make_tuple(
    &ProcessRow::cpu_user_ns, &ProcessRow::cpu_system_ns, &ProcessRow::rss_bytes,
    &ProcessRow::minor_faults, &ProcessRow::net, &ProcessRow::io_read_bytes,
    &ProcessRow::io_write_bytes, &ProcessRow::vsz_bytes, &ProcessRow::threads,
    &ProcessRow::major_faults, &ProcessRow::state, &ProcessRow::net_device, &ProcessRow::exited,
    &ProcessRow::ppid, &ProcessRow::pgrp, &ProcessRow::session, &ProcessRow::tty_nr,
    &ProcessRow::uid, &ProcessRow::kernel_thread, &ProcessRow::comm, &ProcessRow::cmdline,
    &ProcessRow::cgroup, &ProcessRow::container_id, &ProcessRow::start_time_unix_ns);
constexpr std::array<std::string_view, 24> kRowFieldNames{
    "cpu_user_ns", "cpu_system_ns", "rss_bytes",      "minor_faults",
    "net",         "io_read_bytes", "io_write_bytes", "vsz_bytes",
    "threads",     "major_faults",  "state",          "net_device",
    "exited",      "ppid",          "pgrp",           "session",
    "tty_nr",      "uid",           "kernel_thread",  "comm",
    "cmdline",     "cgroup",        "container_id",   "start_time_unix_ns"};

constexpr auto kSocketFields = std::make_tuple(
    &SocketRow::tx_bytes, &SocketRow::rx_bytes, &SocketRow::state, &SocketRow::protocol,
    &SocketRow::family, &SocketRow::listening, &SocketRow::local, &SocketRow::remote,
    &SocketRow::inode, &SocketRow::pid, &SocketRow::uid);
constexpr std::array<std::string_view, 11> kSocketFieldNames{
    "tx_bytes", "rx_bytes", "state", "protocol", "family", "listening",
    "local",    "remote",   "inode", "pid",      "uid"};

static_assert(std::tuple_size_v<decltype(kFrameFields)> == kFrameFieldNames.size());
static_assert(std::tuple_size_v<decltype(kRowFields)> == kRowFieldNames.size());
static_assert(std::tuple_size_v<decltype(kSocketFields)> == kSocketFieldNames.size());
// The layouts these field lists were written for (x86-64, libstdc++): a new member changes them.
static_assert(sizeof(ProcessFrame) == 104 && sizeof(ProcessRow) == 328 && sizeof(SocketRow) == 120,
              "the process data model changed: code the new fields in process_codec.cpp");

template <typename Fields, typename Visit>
void for_each_member(const Fields& fields, Visit&& visit) {
  std::apply(
      [&](auto... member) {
        uint32_t bit = 0;
        (visit(member, bit++), ...);
      },
      fields);
}

uint64_t zigzag(int64_t value) {
  return (static_cast<uint64_t>(value) << 1) ^ static_cast<uint64_t>(value >> 63);
}
int64_t unzigzag(uint64_t value) {
  return static_cast<int64_t>(value >> 1) ^ -static_cast<int64_t>(value & 1);
}

void put_varint(std::vector<uint8_t>& out, uint64_t value) {
  while (value >= 0x80) {
    out.push_back(static_cast<uint8_t>(value | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<uint8_t>(value));
}

// --- Encoding one field: `now` coded against `before` (the decoder holds `before`). ---

template <typename Int>
requires std::is_integral_v<Int>
void put_value(std::vector<uint8_t>& out, Int now, Int before) {
  if constexpr (std::is_same_v<Int, bool>) {
    // Nothing: the field's mask bit says it flipped.
  } else if constexpr (sizeof(Int) == 1) {
    out.push_back(static_cast<uint8_t>(now));
  } else {
    // The difference modulo 2^bits, read as signed: small either way, exact for any values.
    using Unsigned = std::make_unsigned_t<Int>;
    using Signed = std::make_signed_t<Int>;
    const auto delta =
        static_cast<Signed>(static_cast<Unsigned>(now) - static_cast<Unsigned>(before));
    put_varint(out, zigzag(delta));
  }
}

void put_value(std::vector<uint8_t>& out, SocketProtocol now, SocketProtocol /*before*/) {
  out.push_back(static_cast<uint8_t>(now));
}

void put_value(std::vector<uint8_t>& out, const std::string& now, const std::string& /*before*/) {
  put_varint(out, now.size());
  out.insert(out.end(), now.begin(), now.end());
}

void put_value(std::vector<uint8_t>& out, const NetCounters& now, const NetCounters& before) {
  put_value(out, now.tx_bytes, before.tx_bytes);
  put_value(out, now.rx_bytes, before.rx_bytes);
  put_value(out, now.tx_packets, before.tx_packets);
  put_value(out, now.rx_packets, before.rx_packets);
}

template <typename T>
void put_value(std::vector<uint8_t>& out, const std::optional<T>& now,
               const std::optional<T>& before) {
  out.push_back(now ? 1 : 0);
  if (now) put_value(out, *now, before.value_or(T{}));
}

// A record as the mask of fields that differ from `before`, then those fields.
template <typename Fields, typename Record>
void put_changes(std::vector<uint8_t>& out, const Fields& fields, const Record& now,
                 const Record& before) {
  uint32_t mask = 0;
  for_each_member(fields, [&](auto member, uint32_t bit) {
    if (now.*member != before.*member) mask |= 1u << bit;
  });
  put_varint(out, mask);
  for_each_member(fields, [&](auto member, uint32_t bit) {
    if ((mask >> bit & 1) != 0) put_value(out, now.*member, before.*member);
  });
}

// --- Decoding: bounds-checked reads from untrusted bytes. ---

class Reader {
 public:
  Reader(std::span<const uint8_t> in, size_t& at) : in_(in), at_(at) {}

  [[nodiscard]] size_t remaining() const noexcept { return in_.size() - at_; }

  bool varint(uint64_t& value) {
    value = 0;
    for (unsigned shift = 0; shift < 64; shift += 7) {
      if (at_ == in_.size()) return false;
      const uint8_t byte = in_[at_++];
      // The tenth byte holds bit 63 only.
      if (shift == 63 && byte > 1) return false;
      value |= uint64_t{byte & 0x7Fu} << shift;
      if ((byte & 0x80) == 0) return true;
    }
    return false;
  }
  bool byte(uint8_t& value) {
    if (at_ == in_.size()) return false;
    value = in_[at_++];
    return true;
  }
  bool string(std::string& value) {
    uint64_t size = 0;
    if (!varint(size) || size > remaining()) return false;
    value.assign(reinterpret_cast<const char*>(in_.data() + at_), size);
    at_ += size;
    return true;
  }

 private:
  std::span<const uint8_t> in_;
  size_t& at_;
};

template <typename Int>
requires std::is_integral_v<Int>
bool get_value(Reader& in, Int& value) {
  if constexpr (std::is_same_v<Int, bool>) {
    value = !value;
    return true;
  } else if constexpr (sizeof(Int) == 1) {
    uint8_t byte = 0;
    if (!in.byte(byte)) return false;
    value = static_cast<Int>(byte);
    return true;
  } else {
    using Unsigned = std::make_unsigned_t<Int>;
    using Signed = std::make_signed_t<Int>;
    uint64_t coded = 0;
    if (!in.varint(coded)) return false;
    const int64_t delta = unzigzag(coded);
    if (delta < std::numeric_limits<Signed>::min() || delta > std::numeric_limits<Signed>::max()) {
      return false;
    }
    value = static_cast<Int>(
        static_cast<Unsigned>(static_cast<Unsigned>(value) + static_cast<Unsigned>(delta)));
    return true;
  }
}

bool get_value(Reader& in, SocketProtocol& value) {
  uint8_t byte = 0;
  if (!in.byte(byte) || byte > static_cast<uint8_t>(SocketProtocol::udp)) return false;
  value = static_cast<SocketProtocol>(byte);
  return true;
}

bool get_value(Reader& in, std::string& value) { return in.string(value); }

bool get_value(Reader& in, NetCounters& value) {
  return get_value(in, value.tx_bytes) && get_value(in, value.rx_bytes) &&
         get_value(in, value.tx_packets) && get_value(in, value.rx_packets);
}

template <typename T>
bool get_value(Reader& in, std::optional<T>& value) {
  uint8_t present = 0;
  if (!in.byte(present) || present > 1) return false;
  if (present == 0) {
    value.reset();
    return true;
  }
  T decoded = value.value_or(T{});
  if (!get_value(in, decoded)) return false;
  value = std::move(decoded);
  return true;
}

// Applies a coded mask and fields to `record` (which holds the base); the error says what was
// wrong.
template <typename Fields, size_t N, typename Record>
Status get_changes(Reader& in, const Fields& fields, const std::array<std::string_view, N>& names,
                   Record& record) {
  uint64_t mask = 0;
  if (!in.varint(mask)) return Error{"truncated field mask"};
  if ((mask >> N) != 0) return Error{"unknown fields in mask " + std::to_string(mask)};
  std::string_view malformed;  // the first field that did not decode
  for_each_member(fields, [&](auto member, uint32_t bit) {
    if (malformed.empty() && (mask >> bit & 1) != 0 && !get_value(in, record.*member)) {
      malformed = names[bit];
    }
  });
  if (!malformed.empty()) return Error{"field " + std::string(malformed) + " malformed"};
  return {};
}

}  // namespace

void ProcessFrameEncoder::add(const ProcessFrame& frame) {
  static const ProcessFrame kEmpty;
  const ProcessFrame& before = previous_ != nullptr ? *previous_ : kEmpty;
  put_changes(out_, kFrameFields, frame, before);

  // Walk both pid-ordered tables together: pids only in `before` are removed, pids only in
  // `frame` are new (coded against a default row), pids in both are coded if anything changed.
  static const ProcessRow kDefaultRow;
  std::vector<int32_t> removed;
  rows_.clear();
  uint64_t changed = 0;
  int64_t last_changed_pid = 0;
  const auto& old_rows = before.processes;
  size_t i = 0;
  auto put_row = [&](const ProcessRow& row, const ProcessRow& base) {
    put_varint(rows_, zigzag(int64_t{row.pid} - last_changed_pid));
    last_changed_pid = row.pid;
    put_changes(rows_, kRowFields, row, base);
    ++changed;
  };
  for (const auto& row : frame.processes) {
    for (; i < old_rows.size() && old_rows[i].pid < row.pid; ++i)
      removed.push_back(old_rows[i].pid);
    if (i < old_rows.size() && old_rows[i].pid == row.pid) {
      if (!(row == old_rows[i])) put_row(row, old_rows[i]);
      ++i;
    } else {
      ProcessRow base = kDefaultRow;
      base.pid = row.pid;
      put_row(row, base);
    }
  }
  for (; i < old_rows.size(); ++i) removed.push_back(old_rows[i].pid);

  put_varint(out_, removed.size());
  int64_t last_removed_pid = 0;
  for (const int32_t pid : removed) {
    put_varint(out_, zigzag(int64_t{pid} - last_removed_pid));
    last_removed_pid = pid;
  }
  put_varint(out_, changed);
  out_.insert(out_.end(), rows_.begin(), rows_.end());

  // Sockets have no unique key (time-wait sockets share inode 0): each is coded against the
  // socket at the same position in the previous frame, which is usually the same socket.
  static const SocketRow kDefaultSocket;
  put_varint(out_, frame.sockets.size());
  for (size_t s = 0; s < frame.sockets.size(); ++s) {
    put_changes(out_, kSocketFields, frame.sockets[s],
                s < before.sockets.size() ? before.sockets[s] : kDefaultSocket);
  }
  previous_ = &frame;
}

Status ProcessFrameDecoder::next(uint32_t index) {
  Reader in(in_, at_);
  Status decoded = get_changes(in, kFrameFields, kFrameFieldNames, current_);
  if (decoded) decoded = next_rows();
  if (decoded) decoded = next_sockets();
  if (!decoded) return Error{"frame " + std::to_string(index) + ": " + decoded.error()};
  return {};
}

namespace {

constexpr int64_t kBelowAnyPid = int64_t{std::numeric_limits<int32_t>::min()} - 1;

// Pids are coded as zigzag deltas in ascending order: false when the next one is malformed or not
// above `after`.
bool read_pid(Reader& in, int64_t& pid, int64_t after) {
  uint64_t coded = 0;
  if (!in.varint(coded)) return false;
  // The difference of two int32 pids needs 33 bits: a larger one is corrupt.
  const int64_t delta = unzigzag(coded);
  if (delta > (int64_t{1} << 33) || delta < -(int64_t{1} << 33)) return false;
  pid += delta;
  return pid > after && pid <= std::numeric_limits<int32_t>::max();
}

Status read_removed_pids(Reader& in, size_t rows_before, std::vector<int32_t>& removed) {
  uint64_t removed_count = 0;
  if (!in.varint(removed_count)) return Error{"truncated removed-process count"};
  if (removed_count > rows_before) {
    return Error{"removes " + std::to_string(removed_count) +
                 " processes but the frame before has " + std::to_string(rows_before)};
  }
  removed.resize(removed_count);
  int64_t pid = 0;
  for (uint64_t r = 0; r < removed_count; ++r) {
    if (!read_pid(in, pid, r == 0 ? kBelowAnyPid : removed[r - 1])) {
      return Error{"removed pid " + std::to_string(r) + " malformed or out of order"};
    }
    removed[r] = static_cast<int32_t>(pid);
  }
  return {};
}

// Merges the rows of the frame before (minus the removed ones) with the changed and new rows, all
// in pid order.
class RowMerge {
 public:
  RowMerge(std::vector<ProcessRow>& old_rows, const std::vector<int32_t>& removed,
           std::vector<ProcessRow>& rows)
      : old_rows_(old_rows), removed_(removed), rows_(rows) {}

  // Keeps the unchanged rows below `limit`, dropping the removed ones.
  void keep_rows_below(int64_t limit) {
    for (; i_ < old_rows_.size() && old_rows_[i_].pid < limit; ++i_) {
      if (r_ < removed_.size() && removed_[r_] < old_rows_[i_].pid) break;
      if (r_ < removed_.size() && removed_[r_] == old_rows_[i_].pid) {
        ++r_;
      } else {
        rows_.push_back(std::move(old_rows_[i_]));
      }
    }
  }

  // The row `pid` changes: its previous state, or a new row. Empty when a removal is pending at
  // or below it (the removed pid was not in the frame before, or is also changed).
  std::optional<ProcessRow> take(int64_t pid) {
    keep_rows_below(pid);
    if (r_ < removed_.size() && removed_[r_] <= pid) return std::nullopt;
    if (i_ < old_rows_.size() && old_rows_[i_].pid == pid) return std::move(old_rows_[i_++]);
    ProcessRow row;
    row.pid = static_cast<int32_t>(pid);
    return row;
  }

  // The first removed pid that matched no row of the frame before, if any.
  [[nodiscard]] std::optional<int32_t> unmatched_removal() const {
    return r_ < removed_.size() ? std::optional<int32_t>(removed_[r_]) : std::nullopt;
  }

 private:
  std::vector<ProcessRow>& old_rows_;
  const std::vector<int32_t>& removed_;
  std::vector<ProcessRow>& rows_;
  size_t i_ = 0;
  size_t r_ = 0;
};

}  // namespace

Status ProcessFrameDecoder::next_rows() {
  Reader in(in_, at_);
  std::vector<ProcessRow> old_rows = std::move(current_.processes);
  auto& rows = current_.processes;
  rows.clear();

  std::vector<int32_t> removed;
  if (Status read = read_removed_pids(in, old_rows.size(), removed); !read) return read;
  uint64_t changed_count = 0;
  if (!in.varint(changed_count)) return Error{"truncated changed-process count"};
  // Each changed row takes at least two bytes (pid and mask).
  if (changed_count > in.remaining() / 2) {
    return Error{std::to_string(changed_count) + " changed processes cannot fit in the " +
                 std::to_string(in.remaining()) + " bytes left"};
  }
  rows.reserve(
      std::min<uint64_t>(old_rows.size() - removed.size() + changed_count, kMaxProcessesPerFrame));

  RowMerge merge(old_rows, removed, rows);
  int64_t pid = 0;
  for (uint64_t c = 0; c < changed_count; ++c) {
    if (!read_pid(in, pid, c == 0 ? kBelowAnyPid : rows.back().pid)) {
      return Error{"changed process " + std::to_string(c) + ": pid malformed or out of order"};
    }
    std::optional<ProcessRow> row = merge.take(pid);
    if (!row) {
      return Error{"removed pid " + std::to_string(*merge.unmatched_removal()) +
                   " is not in the frame before or is also changed"};
    }
    if (const Status fields = get_changes(in, kRowFields, kRowFieldNames, *row); !fields) {
      return Error{"process " + std::to_string(pid) + ": " + fields.error()};
    }
    rows.push_back(std::move(*row));
  }
  merge.keep_rows_below(std::numeric_limits<int64_t>::max());
  if (const auto unmatched = merge.unmatched_removal()) {
    return Error{"removed pid " + std::to_string(*unmatched) + " is not in the frame before"};
  }
  if (rows.size() > kMaxProcessesPerFrame) {
    return Error{std::to_string(rows.size()) + " processes, more than " +
                 std::to_string(kMaxProcessesPerFrame)};
  }
  return {};
}

Status ProcessFrameDecoder::next_sockets() {
  Reader in(in_, at_);
  uint64_t count = 0;
  if (!in.varint(count)) return Error{"truncated socket count"};
  // Each socket takes at least its mask byte.
  if (count > kMaxSocketsPerFrame || count > in.remaining()) {
    return Error{std::to_string(count) + " sockets: more than the bytes left or the " +
                 std::to_string(kMaxSocketsPerFrame) + " allowed"};
  }
  current_.sockets.resize(count);
  for (size_t s = 0; s < count; ++s) {
    if (const Status fields =
            get_changes(in, kSocketFields, kSocketFieldNames, current_.sockets[s]);
        !fields) {
      return Error{"socket " + std::to_string(s) + ": " + fields.error()};
    }
  }
  return {};
}

}  // namespace flightrec::store::detail
