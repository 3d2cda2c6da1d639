#include "name_source.h"

#include <utility>

#include "flightrec/common/printable.h"

namespace flightrec::container::names::detail {
namespace {

// Problems kept for take_problems(); past this, the oldest go (they were counted).
constexpr size_t kMaxProblems = 64;

}  // namespace

void NameSource::refresh(RefreshContext& context) {
  ++context.stats.checks;
  reporting_.clear();
  const auto stamp = stamp_of(path_);
  if (!stamp) {
    report(context, stamp.error());
  } else if (!read_once_ || !unchanged(stamp_, *stamp) || waiting()) {
    ++context.stats.rescans;
    auto findings = scan(context, *stamp);
    if (findings) {
      table_.replace(std::move(*findings), context.now_ns);
    } else {
      report(context, std::move(findings).error());
    }
    // Also after a failed read: the same bytes would fail again; a change brings a new read.
    stamp_ = *stamp;
    read_once_ = true;
  } else {
    // Nothing read: the problems of the last read still stand, and are not reported again.
    reporting_ = reported_;
  }
  reported_ = std::move(reporting_);
  const auto grace_ns = std::chrono::nanoseconds(context.settings.grace_period).count();
  table_.expire(context.now_ns, grace_ns, context.settings.max_containers);
}

void NameSource::report(RefreshContext& context, std::string problem) {
  // The text may quote bytes from the files (a parser's "last read: ..."): one printable line.
  problem = escape_unprintable(problem, Newlines::escape);
  const bool known = reported_.contains(problem);
  reporting_.insert(problem);
  if (known) return;
  ++context.stats.problems;
  if (context.problems.size() == kMaxProblems) context.problems.erase(context.problems.begin());
  context.problems.push_back(std::move(problem));
}

void NameSource::report_limit(RefreshContext& context) {
  report(context, path_.string() + ": more than " +
                      std::to_string(context.settings.max_containers) +
                      " containers; the rest are not named");
}

}  // namespace flightrec::container::names::detail
