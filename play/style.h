#pragma once
// Text styling for the terminal front end: ANSI colour when the output is a terminal, plain text
// otherwise (pipes, files, tests), so saved transcripts never carry escape codes.

#include <string>
#include <string_view>

namespace sling::play {

enum class Colour { kNone, kDim, kBold, kRed, kGreen, kYellow, kBlue, kMagenta, kCyan };

struct Style {
  bool colour = false;

  // `text` wrapped in the colour's escape codes when colour is on.
  std::string paint(std::string_view text, Colour c) const;
};

// True when the file descriptor is an interactive terminal.
bool is_terminal(int fd);

// "auto" (a terminal gets colour), "always" or "never"; throws OptionError otherwise.
bool colour_wanted(const std::string& mode, int fd);

// Side name as shown to people: "david" -> "David".
std::string display_name(std::string_view side);

// A probability as a percentage with one decimal ("62.5%").
std::string percent(double probability);

}  // namespace sling::play
