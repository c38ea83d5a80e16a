#pragma once
// "key": value in one call, for any rapidjson writer (the reports' PrettyWriter, the page's
// Writer): the JSON written by hand for analyses (analysis_report.cpp) and for `sling serve`
// (play/web) is mostly objects of named fields, and writing each as a key call followed by a value
// call spelled every field twice.  It lives here, below play/, so that both can use it.

#include "engine/core/cereal_json.h"  // first: rapidjson failures become plain errors

#include <rapidjson/rapidjson.h>

#include <concepts>
#include <string_view>

namespace sling {

template <class Writer>
void write_key(Writer& w, std::string_view name) {
  w.Key(name.data(), static_cast<rapidjson::SizeType>(name.size()));
}

template <class Writer>
void write_string(Writer& w, std::string_view text) {
  w.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
}

// The value's JSON kind follows its C++ type: bool, a whole number (any width: the digits are the
// same), a floating-point number, or anything a string_view can be made of.
template <class Writer, class T>
void write_field(Writer& w, std::string_view name, const T& value) {
  write_key(w, name);
  if constexpr (std::same_as<T, bool>) {
    w.Bool(value);
  } else if constexpr (std::signed_integral<T>) {
    w.Int64(value);
  } else if constexpr (std::unsigned_integral<T>) {
    w.Uint64(value);
  } else if constexpr (std::floating_point<T>) {
    w.Double(value);
  } else {
    write_string(w, std::string_view(value));
  }
}

}  // namespace sling
