#include "flightrec/app/standard_output.h"

#include <fcntl.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <sstream>
#include <string>

#include "flightrec/common/fd.h"

using flightrec::Fd;
using flightrec::app::CheckedOutput;
using flightrec::app::FdStreamBuf;

namespace {

struct Pipe {
  Pipe() {
    int ends[2];
    REQUIRE(::pipe2(ends, O_CLOEXEC) == 0);
    read_end = Fd(ends[0]);
    write_end = Fd(ends[1]);
  }
  std::string read_available() const {
    char buffer[256] = {};
    const ssize_t got = ::read(read_end.get(), buffer, sizeof buffer);
    return std::string(buffer, got > 0 ? static_cast<size_t>(got) : 0);
  }
  Fd read_end;
  Fd write_end;
};

}  // namespace

TEST_CASE("FdStreamBuf writes what the stream is given on flush", "[standard_output]") {
  const Pipe pipe;
  FdStreamBuf buffer(pipe.write_end.get());
  std::ostream out(&buffer);
  out << "hello " << 42 << '\n' << std::flush;
  CHECK(out.good());
  CHECK(buffer.error() == 0);
  CHECK(pipe.read_available() == "hello 42\n");
}

TEST_CASE("FdStreamBuf keeps the errno of a failed write", "[standard_output]") {
  const Fd full(::open("/dev/full", O_WRONLY | O_CLOEXEC));
  REQUIRE(full);
  FdStreamBuf buffer(full.get());
  std::ostream out(&buffer);
  out << std::string(200 * 1024, 'x');  // more than the buffer: fails before any flush
  CHECK_FALSE(out.good());
  CHECK(buffer.error() == ENOSPC);
  out.clear();
  out << "more" << std::flush;
  CHECK_FALSE(out.good());  // it stays failed
  CHECK(buffer.error() == ENOSPC);
}

TEST_CASE("CheckedOutput reports a failed write with its reason and exit status 1",
          "[standard_output]") {
  const Fd full(::open("/dev/full", O_WRONLY | O_CLOEXEC));
  REQUIRE(full);
  std::ostringstream stream;
  std::ostringstream err;
  int status = -1;
  {
    CheckedOutput output(stream, full.get());
    stream << "a small table\n";
    status = output.finish(0, err);
  }
  CHECK(status == 1);
  CHECK(err.str() == "flightrec: cannot write the output: No space left on device\n");
}

TEST_CASE("CheckedOutput keeps the command's status and restores the stream", "[standard_output]") {
  const Pipe pipe;
  std::ostringstream stream;
  std::ostringstream err;
  int status = -1;
  {
    CheckedOutput output(stream, pipe.write_end.get());
    stream << "usage\n";
    status = output.finish(2, err);
  }
  CHECK(status == 2);
  CHECK(err.str().empty());
  CHECK(pipe.read_available() == "usage\n");
  stream << "after";
  CHECK(stream.str() == "after");  // the stream's own buffer is back
}
