#include "engine/core/json_options.h"

#include "engine/core/cereal_json.h"

#include <algorithm>

namespace sling::json_detail {

std::string describe_kind(const rapidjson::Value& value) {
  if (value.IsBool()) return "a boolean";
  if (value.IsInt64() || value.IsUint64()) return "an integer";
  if (value.IsNumber()) return "a number";
  if (value.IsString()) return "a string";
  if (value.IsArray()) return "a list";
  if (value.IsObject()) return "an object";
  return "null";
}

namespace {

bool same_kind(const rapidjson::Value& expected, const rapidjson::Value& given) {
  if (expected.IsBool()) return given.IsBool();
  if (expected.IsUint64() && !expected.IsInt64()) return given.IsUint64();
  if (expected.IsInt64() || expected.IsUint64()) {
    // An unsigned default accepts only non-negative integers.
    if (expected.IsUint64() && !expected.IsInt()) return given.IsUint64();
    return given.IsInt64() || given.IsUint64();
  }
  if (expected.IsNumber()) return given.IsNumber();
  if (expected.IsString()) return given.IsString();
  if (expected.IsArray()) return given.IsArray();
  if (expected.IsObject()) return given.IsObject();
  return given.IsNull();
}

std::string valid_keys(const rapidjson::Value& base) {
  std::string names;
  for (auto it = base.MemberBegin(); it != base.MemberEnd(); ++it) {
    if (!names.empty()) names += ", ";
    names += it->name.GetString();
  }
  return names;
}

}  // namespace

void merge_checked(rapidjson::Value& base, const rapidjson::Value& overrides,
                   rapidjson::Document::AllocatorType& allocator, const std::string& path,
                   std::string_view what) {
  for (auto it = overrides.MemberBegin(); it != overrides.MemberEnd(); ++it) {
    const std::string key = path + it->name.GetString();
    auto target = base.FindMember(it->name);
    if (target == base.MemberEnd()) {
      throw RulesError(std::string(what) + ": unknown key '" + key +
                       "' (valid keys: " + valid_keys(base) + ")");
    }
    if (!same_kind(target->value, it->value)) {
      throw RulesError(std::string(what) + ": key '" + key + "' must be " +
                       describe_kind(target->value) + ", got " + describe_kind(it->value));
    }
    if (target->value.IsObject()) {
      merge_checked(target->value, it->value, allocator, key + ".", what);
    } else {
      target->value.CopyFrom(it->value, allocator);
    }
  }
}

rapidjson::Document parse_or_throw(std::string_view text, std::string_view what) {
  rapidjson::Document doc;
  try {
    parse_json(doc, text);
  } catch (const JsonTooDeepError& e) {
    throw RulesError(std::string(what) + ": " + e.what());
  }
  if (doc.HasParseError()) {
    throw RulesError(std::string(what) + ": malformed JSON at offset " +
                     std::to_string(doc.GetErrorOffset()));
  }
  return doc;
}

std::string to_text(const rapidjson::Value& value) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  value.Accept(writer);
  return std::string(buffer.GetString(), buffer.GetSize());
}

}  // namespace sling::json_detail
