#include "engine/core/io.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "engine/core/errors.h"

namespace sling {
namespace {

// Where write_file_atomic writes before it renames (and check_writable probes).
std::string temporary_path(const std::string& path) {
  return path + ".tmp." + std::to_string(::getpid());
}

}  // namespace

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw FileFormatError(error_text("cannot read file", path, std::strerror(errno)));
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

void write_file_atomic(const std::string& path, std::string_view contents) {
  const std::string temporary = temporary_path(path);
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) throw FileFormatError(error_text("cannot write file", path, std::strerror(errno)));
  std::size_t written = 0;
  while (written < contents.size()) {
    const ssize_t n = ::write(fd, contents.data() + written, contents.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      const std::string reason = std::strerror(errno);
      ::close(fd);
      ::unlink(temporary.c_str());
      throw FileFormatError(error_text("cannot write file", path, reason));
    }
    written += static_cast<std::size_t>(n);
  }
  ::fsync(fd);
  ::close(fd);
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    ::unlink(temporary.c_str());
    throw FileFormatError(error_text("cannot write file", path, reason));
  }
}

void check_writable(const std::string& path) {
  const std::string temporary = temporary_path(path);
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT, 0644);
  if (fd < 0) throw FileFormatError(error_text("cannot write file", path, std::strerror(errno)));
  ::close(fd);
  ::unlink(temporary.c_str());
}

}  // namespace sling
