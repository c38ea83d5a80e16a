#include "play/pig_view.h"

#include <algorithm>
#include <sstream>

namespace sling::play {

namespace {

std::string side(const pig::PigGame& game, int who) {
  return display_name(game.info().sides[static_cast<std::size_t>(who)]);
}

}  // namespace

std::string GameView<pig::PigGame>::board(const Game& game, const State& s, const Style& style) {
  constexpr int kWidth = 50;
  std::ostringstream out;
  for (int who = 0; who < 2; ++who) {
    const int banked = s.scores[static_cast<std::size_t>(who)];
    const int at_risk = (who == s.to_move && s.phase != pig::Phase::kOver) ? s.turn_total : 0;
    const int filled = std::min(kWidth, banked * kWidth / game.goal());
    const int risk = std::min(kWidth - filled, (banked + at_risk) * kWidth / game.goal() - filled);
    std::string name = side(game, who);
    name.resize(7, ' ');
    out << (who == s.to_move && s.phase != pig::Phase::kOver ? "> " : "  ") << name << "["
        << style.paint(std::string(static_cast<std::size_t>(filled), '#'),
                       who == 0 ? Colour::kCyan : Colour::kRed)
        << style.paint(std::string(static_cast<std::size_t>(std::max(0, risk)), '+'),
                       Colour::kYellow)
        << std::string(static_cast<std::size_t>(kWidth - filled - std::max(0, risk)), '.') << "] "
        << banked;
    if (at_risk > 0) out << " + " << at_risk << " at risk";
    out << "\n";
  }
  out << "  Goal " << game.goal() << ".  ";
  if (s.phase == pig::Phase::kOver) {
    out << style.paint(result(game, s), Colour::kBold) << "\n";
  } else {
    out << side(game, s.to_move) << " to play, turn total " << s.turn_total << "\n";
  }
  return out.str();
}

std::string GameView<pig::PigGame>::describe_chance(const Game& game, const State& before,
                                                    Action outcome, const Style& style) {
  std::string text = side(game, before.to_move) + " rolls " +
                     style.paint("[" + std::to_string(outcome) + "]", Colour::kBold) + "  -> ";
  if (outcome == 1) {
    if (before.turn_total == 0) return text + "a 1: the turn passes";
    return text + "a 1: the " + count_of(before.turn_total, "point", "points") + " at risk " +
           (before.turn_total == 1 ? "is" : "are") + " lost and the turn passes";
  }
  return text + "turn total " + std::to_string(before.turn_total + outcome);
}

std::string GameView<pig::PigGame>::prompt(const Game& game, const State& s) {
  return side(game, s.to_move) + ", roll or hold? (turn total " + std::to_string(s.turn_total) +
         ", banked " + std::to_string(s.scores[s.to_move]) + ")";
}

std::string GameView<pig::PigGame>::option_label(const Game& game, const State& s, Action a) {
  if (a == pig::kRoll) {
    return s.turn_total > 0 ? "roll  (a 1 loses the " + std::to_string(s.turn_total) + " at risk)"
                            : "roll";
  }
  const int banked = s.scores[s.to_move] + s.turn_total;
  return "hold  (bank " + std::to_string(s.turn_total) + ": " + std::to_string(banked) +
         (banked >= game.goal() ? ", and win)" : ")");
}

std::string GameView<pig::PigGame>::rules_summary(const Game& game) {
  return "PIG: two players race to " + std::to_string(game.goal()) +
         " points. On your turn, roll a die as often as you like: each face 2-6 adds to the turn\n"
         "total, a 1 loses the turn total and ends the turn. Hold to bank the turn total and pass\n"
         "the turn. The first to bank " +
         std::to_string(game.goal()) + " wins.  Type `roll` (r) or `hold` (h).\n";
}

std::string GameView<pig::PigGame>::result(const Game& game, const State& s) {
  return side(game, s.to_move) + " wins with " + std::to_string(s.scores[s.to_move]);
}

}  // namespace sling::play
