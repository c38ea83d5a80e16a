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

// Throws FileFormatError unless write_file_atomic(path, ...) could create its temporary file
// there now (the probe is removed): a long computation checks its outputs before it starts
// rather than failing to save after hours.
void check_writable(const std::string& path);

}  // namespace sling
