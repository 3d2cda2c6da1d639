#include "flightrec/app/standard_output.h"

#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstring>

namespace flightrec::app {

FdStreamBuf::FdStreamBuf(int fd) : fd_(fd) {
  setp(buffer_.data(), buffer_.data() + buffer_.size());
}

FdStreamBuf::~FdStreamBuf() { drain(); }

bool FdStreamBuf::drain() {
  const char* next = pbase();
  while (error_ == 0 && next < pptr()) {
    const ssize_t n = ::write(fd_, next, static_cast<size_t>(pptr() - next));
    if (n > 0) {
      next += n;
    } else if (n == 0 || errno != EINTR) {
      error_ = n == 0 ? EIO : errno;  // a write of nothing would only repeat forever
    }
  }
  setp(buffer_.data(), buffer_.data() + buffer_.size());
  return error_ == 0;
}

FdStreamBuf::int_type FdStreamBuf::overflow(int_type ch) {
  if (!drain()) return traits_type::eof();
  if (traits_type::eq_int_type(ch, traits_type::eof())) return traits_type::not_eof(ch);
  *pptr() = traits_type::to_char_type(ch);
  pbump(1);
  return ch;
}

int FdStreamBuf::sync() { return drain() ? 0 : -1; }

CheckedOutput::CheckedOutput(std::ostream& stream, int fd)
    : stream_(stream), buffer_(fd), previous_(stream.rdbuf(&buffer_)) {}

CheckedOutput::~CheckedOutput() {
  stream_.flush();
  stream_.rdbuf(previous_);
}

int CheckedOutput::finish(int status, std::ostream& err) {
  stream_.flush();
  if (buffer_.error() == 0) return status;
  err << "flightrec: cannot write the output: " << std::strerror(buffer_.error()) << '\n';
  return 1;
}

}  // namespace flightrec::app
