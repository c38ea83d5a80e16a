#include "engine/core/cereal_json.h"

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <utility>

namespace sling {

std::string plain_json_problem(std::string_view text) {
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
