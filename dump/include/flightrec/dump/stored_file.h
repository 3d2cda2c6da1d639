#pragma once
// A stored recording (an incident's file) opened for a request, or the HTTP status to answer with
// instead. Here in the web layer so that the component that stores recordings opens them
// (incidents::open_stored_file) and another serves them (the viewer's page) without knowing the
// first: the app hands the viewer a StoredFileOpener.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <string_view>

namespace flightrec::dump {

// Not a Result: a failure carries the HTTP status it is answered with, not only its text.
struct StoredFile {
  int status = 200;   // 200, or the HTTP status to answer with instead
  std::string error;  // when status != 200: the answer's text (one line, no newline)
  std::filesystem::path path;
  std::ifstream file;  // open at offset 0 when status == 200
  uint64_t bytes = 0;  // its size when opened
  [[nodiscard]] bool ok() const noexcept { return status == 200; }
};

// Opens the stored recording named by `id` (as the request gave it, unchecked); any thread.
using StoredFileOpener = std::function<StoredFile(std::string_view id)>;

}  // namespace flightrec::dump
