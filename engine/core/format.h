#pragma once
// printf-style formatting into a std::string of exactly the length needed, so that a long
// argument (an agent's spec runs to hundreds of characters) is never cut off by a fixed buffer.

#include <cstdarg>
#include <cstdio>
#include <string>

namespace sling {

// Appends the formatted text to `out`; the attribute lets the compiler check every format.
__attribute__((format(printf, 2, 3))) inline void append_format(std::string& out,
                                                                const char* format, ...) {
  va_list args;
  va_start(args, format);
  va_list again;
  va_copy(again, args);
  const int length = std::vsnprintf(nullptr, 0, format, args);
  va_end(args);
  if (length > 0) {
    const std::size_t start = out.size();
    out.resize(start + static_cast<std::size_t>(length) + 1);
    std::vsnprintf(out.data() + start, static_cast<std::size_t>(length) + 1, format, again);
    out.resize(start + static_cast<std::size_t>(length));
  }
  va_end(again);
}

}  // namespace sling
