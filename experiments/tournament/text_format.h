#pragma once
// Small text helpers shared by the tournament's files and reports.

#include <charconv>
#include <cstdio>
#include <string>
#include <string_view>

namespace sling::tournament_text {

// `value` through a printf pattern with one double, e.g. format_number("%.6f", seconds).
inline std::string format_number(const char* pattern, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, pattern, value);
  return buffer;
}

// A whole decimal integer (no sign for unsigned types, nothing after it).
template <class Integer>
bool parse_integer(std::string_view text, Integer& value) {
  if (text.empty()) return false;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && end == text.data() + text.size();
}

// Line breaks replaced by spaces, so that an error message stays on its CSV row or log line.
inline std::string single_line(std::string text) {
  for (char& c : text) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return text;
}

}  // namespace sling::tournament_text
