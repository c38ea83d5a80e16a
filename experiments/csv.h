#pragma once
// Minimal CSV (RFC 4180 style): fields are quoted when they hold a comma, a quote or a line break,
// and quotes inside a quoted field are doubled.  Agent specs ("mcts:iterations=100,c=1.4") hold
// commas, so every writer of a results table goes through here.

#include <string>
#include <string_view>
#include <vector>

namespace sling {

// Quotes `field` when needed.
std::string csv_field(std::string_view field);

// Joins fields into one line, without the line break.
std::string csv_line(const std::vector<std::string>& fields);

// Splits one line (without its line break) into fields; returns false when the line is malformed
// (an unterminated quote, or text after a closing quote), with the reason in `error`.
bool parse_csv_line(std::string_view line, std::vector<std::string>& fields, std::string& error);

}  // namespace sling
