#pragma once
// Every command's writes to standard output are checked in one place, main: a full disk or a
// closed pipe is exit status 1 and "flightrec: cannot write the output: <errno text>" on stderr.
//
// std::cout normally writes through stdio, whose buffer drops the errno of a failed write (a later
// fflush succeeds with nothing left to write), so the reason could not be named afterwards.
// FdStreamBuf writes to the descriptor itself and keeps the first errno.
#include <array>
#include <ostream>
#include <streambuf>

namespace flightrec::app {

class FdStreamBuf : public std::streambuf {
 public:
  explicit FdStreamBuf(int fd);
  FdStreamBuf(const FdStreamBuf&) = delete;
  FdStreamBuf& operator=(const FdStreamBuf&) = delete;
  ~FdStreamBuf() override;

  // The errno of the first write that failed, 0 while none has. Every write after it fails too.
  [[nodiscard]] int error() const noexcept { return error_; }

 protected:
  int_type overflow(int_type ch) override;
  int sync() override;

 private:
  bool drain();

  int fd_;
  int error_ = 0;
  std::array<char, 64 * 1024> buffer_{};
};

// Points `stream` (std::cout) at descriptor `fd` for its lifetime, and puts the old buffer back.
class CheckedOutput {
 public:
  CheckedOutput(std::ostream& stream, int fd);
  CheckedOutput(const CheckedOutput&) = delete;
  CheckedOutput& operator=(const CheckedOutput&) = delete;
  ~CheckedOutput();

  // Flushes; returns `status` when every write succeeded, otherwise writes the error to `err` and
  // returns 1.
  int finish(int status, std::ostream& err);

 private:
  std::ostream& stream_;
  FdStreamBuf buffer_;
  std::streambuf* previous_;
};

}  // namespace flightrec::app
