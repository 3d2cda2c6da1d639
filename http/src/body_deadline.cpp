#include "body_deadline.h"

#include <pthread.h>
#include <sys/socket.h>

#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>

namespace flightrec::http::detail {
namespace {

// One thread for every server in the process, started with the first body read; each request
// adds and removes one entry, so it costs a lock and a wake-up per body, never a thread.
class Timer {
 public:
  Timer() : thread_([this] { run(); }) {}
  ~Timer() {
    {
      const std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    changed_.notify_one();
    thread_.join();
  }
  Timer(const Timer&) = delete;
  Timer& operator=(const Timer&) = delete;

  uint64_t arm(int fd, BodyDeadline::Clock::time_point deadline) {
    uint64_t id = 0;
    {
      const std::lock_guard lock(mutex_);
      id = ++last_id_;
      watched_.emplace(id, Watched{.fd = fd, .deadline = deadline});
    }
    changed_.notify_one();
    return id;
  }

  void disarm(uint64_t id) {
    const std::lock_guard lock(mutex_);
    watched_.erase(id);
  }

 private:
  struct Watched {
    int fd = -1;
    BodyDeadline::Clock::time_point deadline;
  };

  void run() {
    pthread_setname_np(pthread_self(), "http-deadline");
    std::unique_lock lock(mutex_);
    while (!stopping_) {
      const auto now = BodyDeadline::Clock::now();
      auto next = BodyDeadline::Clock::time_point::max();
      for (auto it = watched_.begin(); it != watched_.end();) {
        if (it->second.deadline <= now) {
          // Under the lock: the reader's disarm waits for this, so the descriptor is still its.
          ::shutdown(it->second.fd, SHUT_RD);
          it = watched_.erase(it);
        } else {
          next = std::min(next, it->second.deadline);
          ++it;
        }
      }
      if (next == BodyDeadline::Clock::time_point::max()) {
        changed_.wait(lock);
      } else {
        changed_.wait_until(lock, next);
      }
    }
  }

  std::mutex mutex_;
  std::condition_variable changed_;
  std::map<uint64_t, Watched> watched_;  // few: one per body being read
  uint64_t last_id_ = 0;
  bool stopping_ = false;
  std::thread thread_;  // last: starts once the rest is built
};

Timer& timer() {
  static Timer instance;
  return instance;
}

}  // namespace

BodyDeadline::BodyDeadline(int fd, Clock::time_point deadline) {
  if (fd >= 0) id_ = timer().arm(fd, deadline);
}

BodyDeadline::~BodyDeadline() {
  if (id_ != 0) timer().disarm(id_);
}

}  // namespace flightrec::http::detail
