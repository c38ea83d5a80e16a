#include "play/web/web_json.h"

namespace sling::web {

std::string error_body(std::string_view message) {
  rapidjson::StringBuffer buffer;
  JsonWriter out(buffer);
  out.StartObject();
  write_key(out, "error");
  // One line: a multi-line engine message is joined.
  std::string line(message);
  for (char& c : line) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  write_string(out, line);
  out.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

rapidjson::Document parse_body(std::string_view body) {
  rapidjson::Document document;
  if (body.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    document.SetObject();
    return document;
  }
  try {
    parse_json(document, body);
  } catch (const JsonTooDeepError& e) {
    throw bad_request(e.what());
  }
  if (document.HasParseError()) {
    throw bad_request("malformed JSON at byte " + std::to_string(document.GetErrorOffset()));
  }
  if (!document.IsObject()) throw bad_request("the request body must be a JSON object");
  return document;
}

namespace {
const rapidjson::Value* find(const rapidjson::Value& object, const char* key) {
  const auto it = object.FindMember(key);
  if (it == object.MemberEnd() || it->value.IsNull()) return nullptr;
  return &it->value;
}
}  // namespace

std::optional<std::string> string_field(const rapidjson::Value& object, const char* key) {
  const rapidjson::Value* value = find(object, key);
  if (!value) return std::nullopt;
  if (!value->IsString()) throw bad_request(std::string("'") + key + "' must be a string");
  return std::string(value->GetString(), value->GetStringLength());
}

std::optional<std::int64_t> integer_field(const rapidjson::Value& object, const char* key) {
  const rapidjson::Value* value = find(object, key);
  if (!value) return std::nullopt;
  if (value->IsInt64()) return value->GetInt64();
  if (value->IsUint64()) throw bad_request(std::string("'") + key + "' is out of range");
  throw bad_request(std::string("'") + key + "' must be an integer");
}

std::optional<double> number_field(const rapidjson::Value& object, const char* key) {
  const rapidjson::Value* value = find(object, key);
  if (!value) return std::nullopt;
  if (!value->IsNumber()) throw bad_request(std::string("'") + key + "' must be a number");
  return value->GetDouble();
}

std::optional<std::string> text_or_json_field(const rapidjson::Value& object, const char* key) {
  const rapidjson::Value* value = find(object, key);
  if (!value) return std::nullopt;
  if (value->IsString()) return std::string(value->GetString(), value->GetStringLength());
  if (value->IsObject() || value->IsArray()) return json_detail::to_text(*value);
  throw bad_request(std::string("'") + key + "' must be a file's text or a JSON object");
}

}  // namespace sling::web
