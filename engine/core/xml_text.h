#pragma once
// Text as XML character data or attribute values, for the SVG figures the reports write: an agent
// spec such as `external:cmd='a && b'` stays valid markup.

#include <string>
#include <string_view>

namespace sling {

inline std::string xml_escaped(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace sling
