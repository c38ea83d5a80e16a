#pragma once
// `sling replay`: steps through a game record forwards and backwards with the board shown.  Every
// position is computed once up front by replaying the record (which checks every ply), so moving
// backwards is as cheap as moving forwards.

#include <istream>
#include <ostream>
#include <string>
#include <vector>

#include "engine/core/errors.h"
#include "engine/core/record.h"
#include "play/game_views.h"
#include "play/play_session.h"

namespace sling::play {

inline constexpr const char* kReplayHelp =
    "Commands: n or next (or an empty line), p or prev, g N or goto N (0 = the start), start, "
    "end,\n"
    "          log (every ply), q or quit.  End of input quits.\n";

template <Game G>
class ReplaySession {
 public:
  using State = typename G::State;
  using View = GameView<G>;

  ReplaySession(const G& game, const GameRecord& record, Style style)
      : limited_(game, record.turn_limit), game_(limited_.game()), record_(record), style_(style) {
    replay(game_, record_);  // checks the game name and every ply, with a message naming it
    positions_.push_back(game_.initial_state());
    for (Action a : record_.history) {
      State next = positions_.back();
      apply_any(game_, next, a);
      positions_.push_back(next);
    }
  }

  std::size_t plies() const { return record_.history.size(); }

  // Prints position `ply` (0 = the start) with the ply that led to it.
  void show(std::ostream& out, std::size_t ply) const {
    out << "\n" << View::board(game_, positions_[ply], style_);
    out << "Ply " << ply << " of " << plies();
    if (ply > 0) out << ": " << describe(ply - 1);
    out << "\n";
    if (game_.is_terminal(positions_[ply])) {
      out << style_.paint(View::result(game_, positions_[ply]), Colour::kBold) << "\n";
    }
  }

  // What ply `index` (0-based) did.
  std::string describe(std::size_t index) const {
    const State& before = positions_[index];
    const Action a = record_.history[index];
    const Player p = game_.current_player(before);
    if (p == kChancePlayer) return View::describe_chance(game_, before, a, style_);
    return side_with_verb(game_.info().sides[static_cast<std::size_t>(p)], "plays", "play") + " " +
           sling::action_words(game_, before, a);
  }

  void to_end(std::ostream& out) const {
    out << display_name(game_.info().name) << " record, seed " << record_.seed << ", " << plies()
        << " plies.\n";
    show(out, plies());
    if (!game_.is_terminal(positions_.back())) out << "(the record ends before the game does)\n";
  }

  // The interactive loop; returns at `q` or the end of input.
  void run(std::istream& in, std::ostream& out) const {
    out << display_name(game_.info().name) << " record, seed " << record_.seed << ", " << plies()
        << " plies.  " << kReplayHelp;
    std::size_t at = 0;
    show(out, at);
    std::string line;
    while (true) {
      out << "replay " << at << "/" << plies() << "> " << std::flush;
      if (!std::getline(in, line)) {
        out << "\n";
        return;
      }
      line = trim_copy(line);
      const std::string word = lower_copy(line.substr(0, line.find(' ')));
      const std::string rest = trim_copy(line.substr(std::min(line.size(), word.size())));
      if (word == "q" || word == "quit" || word == "exit") return;
      if (word.empty() || word == "n" || word == "next") {
        if (at == plies()) {
          out << "That is the last ply (`p` goes back, `q` quits).\n";
          continue;
        }
        show(out, ++at);
      } else if (word == "p" || word == "prev" || word == "previous") {
        if (at == 0) {
          out << "That is the start (`n` goes forwards).\n";
          continue;
        }
        show(out, --at);
      } else if (word == "g" || word == "goto") {
        std::size_t target = 0;
        if (!parse_ply(rest, target)) {
          out << "Usage: g N, with N from 0 to " << plies() << ".\n";
          continue;
        }
        at = target;
        show(out, at);
      } else if (word == "end") {
        at = plies();
        show(out, at);
      } else if (word == "start") {
        at = 0;
        show(out, at);
      } else if (word == "log") {
        for (std::size_t i = 0; i < plies(); ++i) {
          out << (i + 1 == at ? " > " : "   ") << i + 1 << ". " << describe(i) << "\n";
        }
      } else if (word == "help" || word == "?") {
        out << kReplayHelp;
      } else {
        out << "Unknown command '" << line << "'.  " << kReplayHelp;
      }
    }
  }

 private:
  bool parse_ply(const std::string& text, std::size_t& ply) const {
    if (text.empty() || text.size() > 9 ||
        !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      return false;
    }
    ply = std::stoul(text);
    return ply <= plies();
  }

  const TurnLimited<G> limited_;  // the rules and the turn limit the record was played to
  const G& game_;
  GameRecord record_;
  Style style_;
  std::vector<State> positions_;
};

}  // namespace sling::play
