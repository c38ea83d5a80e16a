#include "experiments/csv.h"

namespace sling {

std::string csv_field(std::string_view field) {
  if (field.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(field);
  std::string quoted = "\"";
  for (char c : field) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  quoted += '"';
  return quoted;
}

std::string csv_line(const std::vector<std::string>& fields) {
  std::string line;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) line += ',';
    line += csv_field(fields[i]);
  }
  return line;
}

bool parse_csv_line(std::string_view line, std::vector<std::string>& fields, std::string& error) {
  fields.clear();
  std::size_t at = 0;
  while (true) {
    std::string field;
    if (at < line.size() && line[at] == '"') {
      ++at;
      bool closed = false;
      while (at < line.size()) {
        if (line[at] == '"') {
          if (at + 1 < line.size() && line[at + 1] == '"') {
            field += '"';
            at += 2;
            continue;
          }
          ++at;
          closed = true;
          break;
        }
        field += line[at++];
      }
      if (!closed) {
        error = "unterminated quoted field";
        return false;
      }
      if (at < line.size() && line[at] != ',') {
        error = "text after a closing quote";
        return false;
      }
    } else {
      const std::size_t end = line.find(',', at);
      const std::size_t stop = end == std::string_view::npos ? line.size() : end;
      field.assign(line.substr(at, stop - at));
      if (field.find('"') != std::string::npos) {
        error = "a quote inside an unquoted field";
        return false;
      }
      at = stop;
    }
    fields.push_back(std::move(field));
    if (at >= line.size()) return true;
    ++at;  // the comma
    if (at == line.size()) {
      fields.emplace_back();
      return true;
    }
  }
}

}  // namespace sling
