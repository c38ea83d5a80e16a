#pragma once
// The text of JSON scalars that Sling writes by hand (engine/core/json_writer.h, and the few
// places that splice a value into JSON text): one string escaper and one number format, so every
// report, summary and exported file spells a string and a number the same way.

#include <string>
#include <string_view>

namespace sling {

// `text` as a quoted JSON string, with quotes, backslashes and control characters escaped.
std::string json_string(std::string_view text);
void append_json_string(std::string& out, std::string_view text);

// A number as JSON, in the format an output has always used: a fixed count of decimals
// (printf's %.Nf) or of significant digits (%.Ng; 6 is what an ostream writes by default).
// NaN and infinities are null (JSON has no spelling for them: a value not computed, or an
// interval of an agent that never played).
struct JsonNumber {
  enum class Style { decimals, significant };

  double value = 0;
  Style style = Style::significant;
  int digits = 6;

  static constexpr JsonNumber fixed(double value, int decimals) {
    return {value, Style::decimals, decimals};
  }
  static constexpr JsonNumber significant(double value, int digits = 6) {
    return {value, Style::significant, digits};
  }
};

std::string json_number(JsonNumber number);
void append_json_number(std::string& out, JsonNumber number);

}  // namespace sling
