#include "engine/core/json_writer.h"

#include <utility>

namespace sling {

void JsonWriter::new_line(std::size_t depth) {
  out_ += '\n';
  out_.append(2 * depth, ' ');
}

void JsonWriter::before_value() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (open_.empty()) return;
  Container& container = open_.back();
  if (!container.empty) out_ += ',';
  if (container.layout != JsonLayout::one_line) {
    new_line(open_.size());
  } else if (!container.empty) {
    out_ += ' ';
  }
  container.empty = false;
}

void JsonWriter::open(char bracket, JsonLayout layout) {
  before_value();
  out_ += bracket;
  open_.push_back({layout});
}

void JsonWriter::close(char bracket) {
  const JsonLayout layout = open_.back().layout;
  open_.pop_back();
  if (layout == JsonLayout::multi_line) new_line(open_.size());
  out_ += bracket;
}

JsonWriter& JsonWriter::begin_object(JsonLayout layout) {
  open('{', layout);
  return *this;
}

JsonWriter& JsonWriter::end_object() {
  close('}');
  return *this;
}

JsonWriter& JsonWriter::begin_array(JsonLayout layout) {
  open('[', layout);
  return *this;
}

JsonWriter& JsonWriter::end_array() {
  close(']');
  return *this;
}

JsonWriter& JsonWriter::key(std::string_view name) {
  before_value();
  append_json_string(out_, name);
  out_ += ": ";
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::string(std::string_view text) {
  before_value();
  append_json_string(out_, text);
  return *this;
}

JsonWriter& JsonWriter::number(JsonNumber value) {
  before_value();
  append_json_number(out_, value);
  return *this;
}

JsonWriter& JsonWriter::boolean(bool value) {
  before_value();
  out_ += value ? "true" : "false";
  return *this;
}

JsonWriter& JsonWriter::null() {
  before_value();
  out_ += "null";
  return *this;
}

std::string JsonWriter::take_document() {
  out_ += '\n';
  open_.clear();
  after_key_ = false;
  return std::exchange(out_, std::string());
}

}  // namespace sling
