#pragma once
// Writes a file a user named (`--output=PATH`) the way the shell's `> PATH` treats it, except that
// a regular file is replaced atomically:
//  - a symlink is followed: the replace happens where the chain of links ends, the link stays;
//  - a regular file, or nothing yet, is replaced (or created) with write_file_atomically
//    (flightrec/common/atomic_file.h);
//  - anything else that exists (character device, FIFO, socket, /dev/stdout) is opened and written
//    straight through, never created or renamed over: --output=/dev/null must not replace
//    /dev/null. So is a path that leads through a /proc/<pid>/fd link (/dev/stdout to a file):
//    it names an open file, not a directory entry, and is appended to as `>>` would;
//  - a directory is an error naming the path.
#include <filesystem>
#include <string_view>

#include "flightrec/common/atomic_file.h"

namespace flightrec::snapshot {

Status write_output_file(const std::filesystem::path& path, std::string_view bytes);

}  // namespace flightrec::snapshot
