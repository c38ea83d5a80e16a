#include "engine/core/state_io.h"  // first: it includes engine/core/cereal_json.h

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <stdexcept>
#include <string>

namespace sling {
namespace {

using Writer = rapidjson::Writer<rapidjson::StringBuffer>;

// cereal writes a C++ array (and values saved without names) as an object {"value0": a,
// "value1": b, ...}; the one form shows it as the list it is.  cereal reads the list back in the
// same order, so the change never loses what it would have read.
bool is_cereal_array(const rapidjson::Value& value) {
  if (!value.IsObject() || value.MemberCount() == 0) return false;
  int index = 0;
  for (const auto& entry : value.GetObject()) {
    if (std::string_view(entry.name.GetString(), entry.name.GetStringLength()) !=
        "value" + std::to_string(index++)) {
      return false;
    }
  }
  return true;
}

void write_with_arrays(const rapidjson::Value& value, Writer& w) {
  if (is_cereal_array(value)) {
    w.StartArray();
    for (const auto& entry : value.GetObject()) write_with_arrays(entry.value, w);
    w.EndArray();
  } else if (value.IsObject()) {
    w.StartObject();
    for (const auto& entry : value.GetObject()) {
      w.Key(entry.name.GetString(), entry.name.GetStringLength());
      write_with_arrays(entry.value, w);
    }
    w.EndObject();
  } else if (value.IsArray()) {
    w.StartArray();
    for (const auto& item : value.GetArray()) write_with_arrays(item, w);
    w.EndArray();
  } else {
    value.Accept(w);
  }
}

[[noreturn]] void malformed(const std::string& problem) {
  throw FileFormatError("malformed state: " + problem);
}

}  // namespace

std::string state_json_from_cereal(std::string_view cereal_text) {
  rapidjson::Document document;
  parse_json(document, cereal_text);
  if (document.HasParseError() || !document.IsObject() || !document.HasMember("state")) {
    // cereal wrote this text a moment ago: only a bug in Sling gets here.
    throw std::logic_error("cereal's JSON of a state without its 'state' object");
  }
  rapidjson::StringBuffer buffer;
  Writer writer(buffer);
  write_with_arrays(document["state"], writer);
  return std::string(buffer.GetString(), buffer.GetSize());
}

std::string cereal_state_text(std::string_view text) {
  rapidjson::Document document;
  try {
    parse_json(document, text);
  } catch (const JsonTooDeepError& e) {
    malformed(e.what());
  }
  if (document.HasParseError()) malformed(json_syntax_problem(text));
  if (!document.IsObject()) malformed("expected an object");
  // No game's state has a field named "state", so its presence tells the wrapped form.
  if (document.HasMember("state")) return safe_json_text(text);
  return "{\"state\":" + safe_json_text(text) + "}";
}

}  // namespace sling
