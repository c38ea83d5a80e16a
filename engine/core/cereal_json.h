#pragma once
// The one way into cereal's JSON archives.  cereal reads JSON with rapidjson, whose failed
// assertions (a string where a number belongs, a negative seed, a truncated file) would otherwise
// surface as "rapidjson internal assertion failure: data_.f.flags & kUint64Flag".  This header
// defines RAPIDJSON_ASSERT before cereal does, so such a failure throws JsonValueError with a
// phrase a reader understands; loaders add the file and the field.  Every source includes this
// header instead of <cereal/archives/json.hpp> (the CerealJsonInclude test checks it).

#include <string>
#include <string_view>

#include "engine/core/errors.h"

namespace sling {

// A JSON value of the wrong kind for the field being read.
class JsonValueError : public FileFormatError {
 public:
  using FileFormatError::FileFormatError;
};

// Plain words for a rapidjson assertion or a cereal message ("expected a non-negative integer").
std::string plain_json_problem(std::string_view library_text);

[[noreturn]] void throw_json_value_error(const char* condition);

// Empty when `text` is well-formed JSON within kMaxJsonDepth; otherwise "malformed JSON at line L,
// column C (why)" or "JSON nested deeper than 128 levels at line L, column C".
std::string json_syntax_problem(std::string_view text);

}  // namespace sling

#ifdef RAPIDJSON_ASSERT
#error "engine/core/cereal_json.h must be included before any rapidjson or cereal JSON header"
#endif
#define RAPIDJSON_ASSERT(x) \
  if (!(x)) ::sling::throw_json_value_error(#x)

#include <cereal/archives/json.hpp>

namespace sling {

// The deepest nesting of arrays and objects that any JSON reader of Sling accepts.  rapidjson's
// parser, cereal's reader and Sling's own converters recurse once per level, so a line of a few
// hundred thousand brackets (under the protocol's 1 MiB line limit) would overflow a thread's stack
// and take the whole process down.  Sling's own files nest at most about ten levels.
inline constexpr int kMaxJsonDepth = 128;

// JSON nested deeper than kMaxJsonDepth: refused before any parser sees it.
class JsonTooDeepError : public JsonValueError {
 public:
  using JsonValueError::JsonValueError;
};

// Debian 12's rapidjson 1.1 converts a number whose digits are all zeros ("0e71", "0.0E-031", "0."
// and 23 zeros) or whose magnitude is below about 1e-330 ("0.0033E-333") through a path that
// normalises a zero significand (clz(0)) or reads outside its table of powers of ten: a wrong value
// (1.4e-42 for "0." and 23 zeros), undefined behaviour, a SEGV under AddressSanitizer (fixed
// upstream after 1.1.0).  safe_json_text returns `text` with every number that is zero or smaller
// in magnitude than 1e-300 (no setting of Sling's is) written "0.0" and padded with spaces: zero of
// the same sign, the same length (error columns do not move), all other text untouched.  It throws
// JsonTooDeepError, naming the line and column, when arrays and objects nest deeper than
// kMaxJsonDepth.  Every parse of outside text (parse_json, state_from_json) reads its result.
inline constexpr int kSmallestPowerOfTenReadExactly = -300;
std::string safe_json_text(std::string_view text);

// Parses `text` into `document` the one safe way; every JSON reader in Sling goes through it or
// through safe_json_text (the CerealJsonInclude test checks that no source calls rapidjson's Parse
// itself).  A syntax error is left in the document (HasParseError); nesting deeper than
// kMaxJsonDepth throws JsonTooDeepError, which each reader reports as its own one-line error.
void parse_json(rapidjson::Document& document, std::string_view text);

}  // namespace sling
