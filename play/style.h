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

// The side's name with a verb that agrees with it: ("david", "plays", "play") -> "David plays",
// ("danes", "plays", "play") -> "Danes play".  Peoples named in the plural ("danes", "english")
// take the plural verb.
std::string side_with_verb(std::string_view side, std::string_view singular,
                           std::string_view plural);

// "1 town", "3 towns".
std::string count_of(long long n, std::string_view singular, std::string_view plural);

// A probability as a percentage with one decimal ("62.5%").
std::string percent(double probability);

}  // namespace sling::play
