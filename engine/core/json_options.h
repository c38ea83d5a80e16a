#pragma once
// Options files (rules, maps, agent settings) are JSON read with cereal.  A file may give any
// subset of the keys: the others keep their defaults.  An unknown key, or a value of the wrong
// kind, is an error that names the key and lists the valid ones, because a silently ignored typo in
// a rules file would make a whole experiment answer a different question.

#include "engine/core/cereal_json.h"  // first: rapidjson failures become plain errors

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <sstream>
#include <string>
#include <string_view>

#include "engine/core/errors.h"

namespace sling {

namespace json_detail {

std::string describe_kind(const rapidjson::Value& value);

// Overwrites `base` with `overrides`, key by key, checking names and kinds against `base`.
void merge_checked(rapidjson::Value& base, const rapidjson::Value& overrides,
                   rapidjson::Document::AllocatorType& allocator, const std::string& path,
                   std::string_view what);

rapidjson::Document parse_or_throw(std::string_view text, std::string_view what);

std::string to_text(const rapidjson::Value& value);

}  // namespace json_detail

// Writes an options struct as a JSON object whose keys are the struct's fields.
template <class T>
std::string options_to_json(const T& options) {
  std::ostringstream out;
  {
    cereal::JSONOutputArchive archive(out);
    const_cast<T&>(options).serialize(archive);  // cereal's member serialize is non-const
  }
  return out.str();
}

// Reads an options struct from JSON text over the values of `base` (a key `text` leaves out keeps
// base's value), then calls T::validate(): a variant of some rules, one key changed.
template <class T>
T options_over(const T& base, std::string_view text, std::string_view what) {
  rapidjson::Document merged = json_detail::parse_or_throw(options_to_json(base), what);
  const rapidjson::Document overrides = json_detail::parse_or_throw(text, what);
  if (!overrides.IsObject()) throw RulesError(std::string(what) + ": expected a JSON object");
  json_detail::merge_checked(merged, overrides, merged.GetAllocator(), "", what);
  T options{};
  try {
    std::istringstream in(json_detail::to_text(merged));
    cereal::JSONInputArchive archive(in);
    options.serialize(archive);
  } catch (const cereal::Exception& e) {
    throw RulesError(std::string(what) + ": " + e.what());
  }
  options.validate();
  return options;
}

// Reads an options struct from JSON text over the defaults of T{}, then calls T::validate().
template <class T>
T options_from_json(std::string_view text, std::string_view what) {
  return options_over(T{}, text, what);
}

}  // namespace sling
