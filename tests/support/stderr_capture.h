#pragma once
// Captures what the code under test logs (the log goes to fd 2), for the tests that check it.
#include <unistd.h>

#include <cstdio>
#include <sstream>
#include <string>

namespace flightrec::testing {

// Sends fd 2 (where the log goes) to a file while alive; text() returns what was logged.
class StderrCapture {
 public:
  StderrCapture() : file_(std::tmpfile()), saved_(dup(2)) {
    std::fflush(stderr);
    dup2(fileno(file_), 2);
  }
  ~StderrCapture() {
    restore();
    std::fclose(file_);
  }
  StderrCapture(const StderrCapture&) = delete;
  StderrCapture& operator=(const StderrCapture&) = delete;

  std::string text() {
    std::fflush(stderr);
    std::string out;
    std::rewind(file_);
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, file_)) > 0) out.append(buf, n);
    return out;
  }
  // Lines holding `needle`.
  size_t count(const std::string& needle) {
    std::istringstream lines(text());
    size_t found = 0;
    for (std::string line; std::getline(lines, line);) {
      if (line.find(needle) != std::string::npos) ++found;
    }
    return found;
  }

 private:
  void restore() {
    if (saved_ < 0) return;
    std::fflush(stderr);
    dup2(saved_, 2);
    close(saved_);
    saved_ = -1;
  }
  std::FILE* file_;
  int saved_;
};

}  // namespace flightrec::testing
