#include "engine/core/cereal_json.h"

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <limits>
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

namespace {

bool is_digit(std::string_view text, std::size_t i) {
  return i < text.size() && text[i] >= '0' && text[i] <= '9';
}

// The length of the number rapidjson reads at `start` (a digit): "0" or a run of digits, then '.'
// and digits, then 'e' or 'E', a sign and digits; 0 when rapidjson stops with an error before
// converting it (a '.' or an exponent without digits).
std::size_t json_number_length(std::string_view text, std::size_t start) {
  std::size_t end = start + 1;
  if (text[start] != '0') {
    while (is_digit(text, end)) ++end;
  }
  if (end < text.size() && text[end] == '.') {
    if (!is_digit(text, ++end)) return 0;
    while (is_digit(text, end)) ++end;
  }
  if (end < text.size() && (text[end] == 'e' || text[end] == 'E')) {
    ++end;
    if (end < text.size() && (text[end] == '+' || text[end] == '-')) ++end;
    if (!is_digit(text, end)) return 0;
    while (is_digit(text, end)) ++end;
  }
  return end - start;
}

// The power of ten of the first significant digit of a number json_number_length accepted, or
// INT_MIN when every digit of its significand is a zero.  The exponent saturates far outside a
// double's range.
int leading_power_of_ten(std::string_view number) {
  std::size_t integer_digits = 0;
  while (is_digit(number, integer_digits)) ++integer_digits;
  std::size_t fraction_end = integer_digits;
  if (fraction_end < number.size() && number[fraction_end] == '.') {
    ++fraction_end;
    while (is_digit(number, fraction_end)) ++fraction_end;
  }
  int exponent = 0;
  if (fraction_end < number.size()) {  // 'e' or 'E', a sign, digits
    std::size_t at = fraction_end + 1;
    const bool negative = number[at] == '-';
    if (number[at] == '+' || number[at] == '-') ++at;
    for (; at < number.size(); ++at)
      exponent = std::min(exponent * 10 + (number[at] - '0'), 1000000);
    if (negative) exponent = -exponent;
  }
  for (std::size_t i = 0; i < integer_digits; ++i) {
    if (number[i] != '0') return static_cast<int>(integer_digits - 1 - i) + exponent;
  }
  for (std::size_t i = integer_digits + 1; i < fraction_end; ++i) {
    if (number[i] != '0') return exponent - static_cast<int>(i - integer_digits);
  }
  return std::numeric_limits<int>::min();
}

// "line L, column C" of byte `offset` of `text`, both from 1.
std::string line_and_column(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  const std::size_t line =
      1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + offset, '\n'));
  std::size_t line_start = 0;
  if (offset > 0) {
    const std::size_t newline = text.rfind('\n', offset - 1);
    if (newline != std::string_view::npos) line_start = newline + 1;
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(offset - line_start + 1);
}

[[noreturn]] void throw_too_deep(std::string_view text, std::size_t offset) {
  throw JsonTooDeepError("JSON nested deeper than " + std::to_string(kMaxJsonDepth) +
                         " levels at " + line_and_column(text, offset));
}

}  // namespace

std::string safe_json_text(std::string_view text) {
  std::string safe(text);
  bool in_string = false;
  int depth = 0;  // brackets outside strings; a stray closing one is the parser's syntax error
  std::size_t i = 0;
  while (i < safe.size()) {
    const char c = safe[i];
    if (in_string) {
      i += c == '\\' ? 2 : 1;
      if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
      ++i;
      continue;
    }
    if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth) throw_too_deep(text, i);
    } else if (c == ']' || c == '}') {
      --depth;
    }
    if (!is_digit(safe, i)) {
      ++i;
      continue;
    }
    // A number from its first digit (a sign before it stays where it is).
    const std::size_t length = json_number_length(safe, i);
    if (length > 3 && leading_power_of_ten(std::string_view(safe).substr(i, length)) <
                          kSmallestPowerOfTenReadExactly) {
      safe.replace(i, length, "0.0" + std::string(length - 3, ' '));
    }
    i += std::max<std::size_t>(length, 1);
  }
  return safe;
}

void parse_json(rapidjson::Document& document, std::string_view text) {
  const std::string safe = safe_json_text(text);
  document.Parse(safe.data(), safe.size());
}

std::string json_syntax_problem(std::string_view text) {
  rapidjson::Document document;
  try {
    parse_json(document, text);
  } catch (const JsonTooDeepError& e) {
    return e.what();
  }
  if (!document.HasParseError()) return "";
  std::string reason = rapidjson::GetParseError_En(document.GetParseError());
  if (!reason.empty() && reason.back() == '.') reason.pop_back();
  for (char& c : reason) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return "malformed JSON at " + line_and_column(text, document.GetErrorOffset()) + " (" + reason +
         ")";
}

}  // namespace sling
