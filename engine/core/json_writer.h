#pragma once
// One writer for the JSON that Sling writes by hand (reports, solve summaries, exported maps and
// models), where a cereal archive would impose its own layout. Strings and numbers come from
// engine/core/json_text.h; the layout is chosen per container (JsonLayout) so that each file keeps
// its shape. Elements on lines of their own are indented two spaces a level.
//
//   JsonWriter json;
//   json.begin_object().key("game").string("pig").key("goal").integer(100);
//   json.key("score").number(JsonNumber::fixed(0.25, 4)).end_object();
//   std::cout << json.take_document();  // {\n  "game": "pig", ... \n}\n

#include <charconv>
#include <concepts>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/json_text.h"

namespace sling {

enum class JsonLayout {
  multi_line,     // each element on its own line, the closing bracket on a line of its own
  element_lines,  // each element on its own line, the bracket closing straight after the last
  one_line,       // {"a": 1, "b": [2, 3]} where it stands
};

class JsonWriter {
 public:
  JsonWriter& begin_object(JsonLayout layout = JsonLayout::multi_line);
  JsonWriter& end_object();
  JsonWriter& begin_array(JsonLayout layout = JsonLayout::multi_line);
  JsonWriter& end_array();

  // The key of the next value, inside an object.
  JsonWriter& key(std::string_view name);

  JsonWriter& string(std::string_view text);
  JsonWriter& number(JsonNumber value);
  JsonWriter& boolean(bool value);
  JsonWriter& null();
  template <std::integral Integer>
  requires(!std::same_as<Integer, bool>) JsonWriter& integer(Integer value) {
    char buffer[24];
    const auto end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
    before_value();
    out_.append(buffer, end);
    return *this;
  }

  // The text written so far.
  const std::string& text() const { return out_; }
  // The finished document with the newline that ends a text file; the writer is left empty.
  std::string take_document();

 private:
  struct Container {
    JsonLayout layout;
    bool empty = true;
  };

  // The separator before an element: a comma after an earlier one, and the new line and indent
  // of a multi-line container (nothing after a key, which wrote its own ": ").
  void before_value();
  void open(char bracket, JsonLayout layout);
  void close(char bracket);
  void new_line(std::size_t depth);

  std::string out_;
  std::vector<Container> open_;
  bool after_key_ = false;
};

}  // namespace sling
