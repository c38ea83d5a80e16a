#pragma once
// Typed errors.  Library code throws; only the command line turns an error into a one-line message
// and an exit code, so that a bad file or a bad move never aborts a long experiment half-written.

#include <stdexcept>
#include <string>
#include <string_view>

namespace sling {

// The one shape of every message a user reads: "<what> (<file or option>): <why>", for example
// "bad game record (game.sav): field 'seed': expected an integer from 0 to 2^64 - 1".
inline std::string error_text(std::string_view what, std::string_view where, std::string_view why) {
  std::string text(what);
  if (!where.empty()) text.append(" (").append(where).append(")");
  if (!why.empty()) text.append(": ").append(why);
  return text;
}

// Every message is one line: a line break or another control character that came from a file (a
// JSON key, a town name, a record's game) is written as an escape, "\n" or "\x01".
inline std::string one_line(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string line;
  line.reserve(text.size());
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '\n') {
      line += "\\n";
    } else if (c == '\r') {
      line += "\\r";
    } else if (c == '\t') {
      line += "\\t";
    } else if (byte < 0x20 || byte == 0x7f) {
      line += "\\x";
      line += kHex[byte >> 4];
      line += kHex[byte & 15];
    } else {
      line += c;
    }
  }
  return line;
}

class SlingError : public std::runtime_error {
 public:
  explicit SlingError(const std::string& what) : std::runtime_error(one_line(what)) {}
  explicit SlingError(const char* what) : std::runtime_error(one_line(what)) {}
};

// An action that is not legal in the given state (a typed move, a corrupted record, a buggy agent).
class IllegalActionError : public SlingError {
 public:
  using SlingError::SlingError;
};

// Text that does not name an action or chance outcome.
class ParseError : public SlingError {
 public:
  using SlingError::SlingError;
};

// A rules or map file that is malformed, has unknown keys or out-of-range values.
class RulesError : public SlingError {
 public:
  using SlingError::SlingError;
};

// A save, record, solution or checkpoint file that cannot be read back.
class FileFormatError : public SlingError {
 public:
  using SlingError::SlingError;
};

// A bad agent spec or command-line option value.
class OptionError : public SlingError {
 public:
  using SlingError::SlingError;
};

}  // namespace sling
