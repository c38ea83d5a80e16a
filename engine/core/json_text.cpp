#include "engine/core/json_text.h"

#include <cmath>
#include <cstdio>

namespace sling {

void append_json_string(std::string& out, std::string_view text) {
  out += '"';
  for (const char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buffer[8];
          std::snprintf(buffer, sizeof buffer, "\\u%04x", static_cast<unsigned>(c));
          out += buffer;
        } else {
          out += c;
        }
    }
  }
  out += '"';
}

std::string json_string(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  append_json_string(out, text);
  return out;
}

void append_json_number(std::string& out, JsonNumber number) {
  if (!std::isfinite(number.value)) {
    out += "null";
    return;
  }
  const char* pattern = number.style == JsonNumber::Style::decimals ? "%.*f" : "%.*g";
  char buffer[64];
  const int length = std::snprintf(buffer, sizeof buffer, pattern, number.digits, number.value);
  if (length < static_cast<int>(sizeof buffer)) {
    out.append(buffer, static_cast<std::size_t>(length));
    return;
  }
  // Many decimals of a large number (%.10f of 1e300): rare, so measured first and written again.
  const std::size_t start = out.size();
  out.resize(start + static_cast<std::size_t>(length) + 1);
  std::snprintf(out.data() + start, static_cast<std::size_t>(length) + 1, pattern, number.digits,
                number.value);
  out.resize(start + static_cast<std::size_t>(length));
}

std::string json_number(JsonNumber number) {
  std::string out;
  append_json_number(out, number);
  return out;
}

}  // namespace sling
