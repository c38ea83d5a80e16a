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

// Empty when `text` is well-formed JSON; otherwise "malformed JSON at line L, column C".
std::string json_syntax_problem(std::string_view text);

}  // namespace sling

#ifdef RAPIDJSON_ASSERT
#error "engine/core/cereal_json.h must be included before any rapidjson or cereal JSON header"
#endif
#define RAPIDJSON_ASSERT(x) \
  if (!(x)) ::sling::throw_json_value_error(#x)

#include <cereal/archives/json.hpp>
