#pragma once
// What every fuzz target asks of an error a loader throws: one line, in Sling's own words.  A
// message with a line break, or with rapidjson's or cereal's own text in it ("Failed to read 8
// bytes from input stream", "provided NVP not found", an assertion's condition), aborts the run,
// so that libFuzzer keeps the input like any crash.
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "engine/core/errors.h"

namespace sling::fuzz {

inline std::string lower_case(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower;
}

// `message` is an error's text as the user reads it (a SlingError's, or the web server's answer to
// a bad request).  `fuzzed_input` is the fuzzed text: a marker it holds itself may come back in an
// error that quotes it, in any case (the danelaw parser lower-cases a typed town's name), so both
// are compared lower-case.  The input is compared as a message quotes it, through one_line: a
// control character comes back as an escape, so "\r" before "apidjson" reads "\rapidjson" in the
// message, and the marker that spells is the input's own.
inline void check_error_text(std::string_view message, std::string_view fuzzed_input) {
  const std::string text = lower_case(message);
  const std::string input = lower_case(one_line(fuzzed_input));
  static constexpr std::string_view kLibraryText[] = {
      "rapidjson",    "internal assertion",  "provided nvp", "failed to read",
      "input stream", "basic_string",        "vector::",     "max_size()",
      "bad_alloc",    "bad_array_new_length"};
  bool bad = text.empty() || text.find('\n') != std::string_view::npos;
  for (const std::string_view marker : kLibraryText) {
    bad =
        bad || (text.find(marker) != std::string::npos && input.find(marker) == std::string::npos);
  }
  if (bad) {
    std::fprintf(stderr, "fuzz: the error is not one line in Sling's words: %s\n",
                 std::string(message).c_str());
    std::abort();
  }
}

inline void check_message(const SlingError& error, std::string_view fuzzed_input) {
  check_error_text(error.what(), fuzzed_input);
}

}  // namespace sling::fuzz
