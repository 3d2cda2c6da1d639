#pragma once
// gzip (RFC 1952) compression of a response body, via zlib.
#include <string>
#include <string_view>

namespace flightrec::exporter::exposition {

// Compresses `plain` into a complete gzip member (header, deflate data, CRC-32 and length) at
// zlib's default level. Replaces the contents of `out`, keeping its capacity for the next scrape.
// Throws std::bad_alloc when zlib cannot get memory.
void gzip(std::string_view plain, std::string& out);
std::string gzip(std::string_view plain);

}  // namespace flightrec::exporter::exposition
