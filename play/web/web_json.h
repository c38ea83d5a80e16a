#pragma once
// JSON in and out of `sling serve`: the errors a request can cause (each becomes a 4xx with a
// one-line JSON body), strict readers of request fields, and a writer for responses.

#include "engine/core/json_options.h"  // first: makes rapidjson assertions throw

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "experiments/analysis/json_fields.h"

namespace sling::web {

// A request the server refuses: its HTTP status and a one-line reason.  The game it names is left
// as it was.
class HttpError : public std::runtime_error {
 public:
  HttpError(int status, const std::string& message)
      : std::runtime_error(message), status_(status) {}
  int status() const { return status_; }

 private:
  int status_;
};

inline HttpError bad_request(const std::string& message) {
  return HttpError(400, message);
}
inline HttpError conflict(const std::string& message) {
  return HttpError(409, message);
}

using JsonWriter = rapidjson::Writer<rapidjson::StringBuffer>;

// write_key, write_string and write_field for any rapidjson writer:
// experiments/analysis/json_fields.h.

// {"error": message}
std::string error_body(std::string_view message);

// Parses a request body that must be a JSON object (an empty body is an empty object).
rapidjson::Document parse_body(std::string_view body);

// Optional fields of a request object; a field of the wrong kind is a 400 naming it.
std::optional<std::string> string_field(const rapidjson::Value& object, const char* key);
std::optional<std::int64_t> integer_field(const rapidjson::Value& object, const char* key);
std::optional<double> number_field(const rapidjson::Value& object, const char* key);
// A string, or an object/array given inline (returned as its JSON text): uploaded files.
std::optional<std::string> text_or_json_field(const rapidjson::Value& object, const char* key);

}  // namespace sling::web
