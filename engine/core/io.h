#pragma once
// File helpers shared by every command.  Writes go to a temporary file that is renamed over the
// target, so an interrupted or failed write never leaves a half-written save or solution behind.

#include <string>
#include <string_view>

namespace sling {

// Reads a whole file; throws FileFormatError naming the path when it cannot.
std::string read_file(const std::string& path);

// Writes `contents` to `path` atomically (temporary file + fsync + rename).
void write_file_atomic(const std::string& path, std::string_view contents);

}  // namespace sling
