#include "play/style.h"

#include <unistd.h>

#include <cctype>
#include <cstdio>

#include "engine/core/errors.h"

namespace sling::play {

std::string Style::paint(std::string_view text, Colour c) const {
  if (!colour || c == Colour::kNone) return std::string(text);
  const char* code = "";
  switch (c) {
    case Colour::kNone:
      break;
    case Colour::kDim:
      code = "2";
      break;
    case Colour::kBold:
      code = "1";
      break;
    case Colour::kRed:
      code = "1;31";
      break;
    case Colour::kGreen:
      code = "1;32";
      break;
    case Colour::kYellow:
      code = "1;33";
      break;
    case Colour::kBlue:
      code = "1;34";
      break;
    case Colour::kMagenta:
      code = "1;35";
      break;
    case Colour::kCyan:
      code = "1;36";
      break;
  }
  return std::string("\x1b[") + code + "m" + std::string(text) + "\x1b[0m";
}

bool is_terminal(int fd) {
  return ::isatty(fd) == 1;
}

bool colour_wanted(const std::string& mode, int fd) {
  if (mode == "auto") return is_terminal(fd);
  if (mode == "always") return true;
  if (mode == "never") return false;
  throw OptionError("--colour must be auto, always or never, got '" + mode + "'");
}

std::string display_name(std::string_view side) {
  std::string name(side);
  if (!name.empty()) name[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(name[0])));
  return name;
}

std::string side_with_verb(std::string_view side, std::string_view singular,
                           std::string_view plural) {
  const bool many = side == "english" || (side.size() > 1 && side.back() == 's');
  return display_name(side) + " " + std::string(many ? plural : singular);
}

std::string count_of(long long n, std::string_view singular, std::string_view plural) {
  return std::to_string(n) + " " + std::string(n == 1 ? singular : plural);
}

std::string percent(double probability) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.1f%%", 100.0 * probability);
  return buffer;
}

}  // namespace sling::play
