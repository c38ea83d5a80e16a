#include "engine/core/cereal_json.h"

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <utility>

namespace sling {

std::string plain_json_problem(std::string_view text) {
  // cereal's "JSON Parsing failed - provided NVP (seed) not found": name the field.
  static constexpr std::string_view kNvp = "provided NVP (";
  if (const std::size_t at = text.find(kNvp); at != std::string_view::npos) {
    const std::size_t begin = at + kNvp.size();
    const std::size_t end = text.find(')', begin);
    if (end != std::string_view::npos) {
      return "field '" + std::string(text.substr(begin, end - begin)) + "' is missing";
    }
  }
  // cereal's binary archives ("Failed to read 8 bytes from input stream! Read 3") and the
  // standard library's refusals of an absurd length read from a corrupted file.
  for (const std::string_view marker :
       {"Failed to read", "input stream", "basic_string", "vector::", "max_size()", "bad_alloc",
        "bad_array_new_length"}) {
    if (text.find(marker) != std::string_view::npos) return "truncated or corrupted";
  }
  // Ordered: the first phrase found decides.
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 14> kPhrases = {{
      {"not found", "missing"},
      {"kUint64Flag", "expected a non-negative integer"},
      {"kUintFlag", "expected a non-negative integer"},
      {"kInt64Flag", "expected an integer"},
      {"kIntFlag", "expected an integer"},
      {"kNumberFlag", "expected a number"},
      {"IsNumber", "expected a number"},
      {"IsString", "expected a string"},
      {"IsBool", "expected true or false"},
      {"kTrueFlag", "expected true or false"},
      {"IsObject", "expected an object"},
      {"IsArray", "expected a list"},
      {"IsNull", "expected null"},
      {"Size", "a list of the wrong length"},
  }};
  for (const auto& [marker, phrase] : kPhrases) {
    if (text.find(marker) != std::string_view::npos) return std::string(phrase);
  }
  if (text.find("rapidjson") != std::string_view::npos ||
      text.find("NVP") != std::string_view::npos) {
    return "a value of the wrong kind";
  }
  return std::string(text);
}

void throw_json_value_error(const char* condition) {
  throw JsonValueError(plain_json_problem(condition));
}

std::string json_syntax_problem(std::string_view text) {
  rapidjson::Document document;
  document.Parse(text.data(), text.size());
  if (!document.HasParseError()) return "";
  const std::size_t offset = std::min(document.GetErrorOffset(), text.size());
  const std::size_t line =
      1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + offset, '\n'));
  std::size_t line_start = 0;
  if (offset > 0) {
    const std::size_t newline = text.rfind('\n', offset - 1);
    if (newline != std::string_view::npos) line_start = newline + 1;
  }
  const std::size_t column = offset - line_start + 1;
  std::string reason = rapidjson::GetParseError_En(document.GetParseError());
  if (!reason.empty() && reason.back() == '.') reason.pop_back();
  for (char& c : reason) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return "malformed JSON at line " + std::to_string(line) + ", column " + std::to_string(column) +
         " (" + reason + ")";
}

}  // namespace sling
