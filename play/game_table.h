#pragma once
// GameTable<G>: the one game session under both ways of playing, the terminal (play_session.h)
// and the page (web/web_game.h).  It owns what makes a game reproducible and resumable, so the
// two views cannot drift apart:
//   - the rules' game, which the agents play, and the game stepped here, the same with the turn
//     limit of games between agents when one applies (engine/core/game_limit.h);
//   - the seed and the history; the die of ply n comes from stream n of the seed
//     (engine/core/dice.h), so undo and load never change the dice;
//   - the agents at the table (null: a person), told every ply and resynchronised after a jump;
//   - undo to the last decision a person chose (answers to a die go with their move, and a
//     question the person chose not to be asked is not theirs);
//   - a save: the game record, with who played each side and the turn limit.
// The views add only how they talk to a person: prompts and text, or JSON.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "agents/agent.h"
#include "engine/core/dice.h"
#include "engine/core/errors.h"
#include "engine/core/game_limit.h"
#include "engine/core/record.h"
#include "experiments/play_game.h"
#include "play/game_views.h"
#include "play/play_agents.h"

namespace sling::play {

template <Game G>
class GameTable {
 public:
  using State = typename G::State;
  using View = GameView<G>;

  // `turn_limit`: the limit of the game stepped here, 0 for none (a game with a person, unless
  // asked).  `rules_game` must outlive the table.
  GameTable(const G& rules_game, int turn_limit, DiceQuestions questions, std::uint64_t seed)
      : rules_game_(rules_game),
        turn_limit_(recorded_turn_limit<G>(turn_limit)),
        limited_(rules_game, turn_limit),
        questions_(questions),
        seed_(seed),
        state_(limited_.game().initial_state()) {}
  GameTable(const GameTable&) = delete;
  GameTable& operator=(const GameTable&) = delete;

  const G& rules_game() const { return rules_game_; }
  const G& game() const { return limited_.game(); }
  int turn_limit() const { return turn_limit_; }
  std::uint64_t seed() const { return seed_; }
  const State& state() const { return state_; }
  const std::vector<Action>& history() const { return history_; }
  std::size_t ply() const { return history_.size(); }

  bool has_agent(std::size_t side) const { return agents_[side] != nullptr; }
  Agent<G>& agent(std::size_t side) const { return *agents_[side]; }
  bool has_person() const { return !agents_[0] || !agents_[1]; }
  // Puts an agent on a side (nullptr: a person) and brings it up to the current position.
  void set_agent(std::size_t side, AgentPtr<G> agent) {
    agents_[side] = std::move(agent);
    resync_agents();
  }

  // The die of the current ply (the state waits for chance).
  Action next_die() const { return roll_dice(game(), state_, seed_, history_.size()); }

  // Plays `action`, records it and tells the agents.
  void apply(Action action) { apply_at_table(game(), state_, history_, agents_, action); }

  // The answer given for a person to a question they chose not to be asked (the duel's God
  // prompt after a roll that went David's way; play/game_view.h), or nullopt.
  std::optional<Action> unasked_answer(const State& s) const {
    if constexpr (requires { View::unasked_answer(game(), s, questions_); }) {
      return View::unasked_answer(game(), s, questions_);
    } else {
      return std::nullopt;
    }
  }
  // The same for the current position, where a person holds the side to act.
  std::optional<Action> persons_unasked_answer() const {
    if (game().is_terminal(state_)) return std::nullopt;
    const Player p = game().current_player(state_);
    if (p < 0 || agents_[static_cast<std::size_t>(p)]) return std::nullopt;
    return unasked_answer(state_);
  }

  // Throws every die due now and gives every answer a person is not asked, until a decision is
  // due or the game ends; `on_die(state before, outcome)` sees each die before it is applied.
  template <class OnDie>
  void advance_chance(OnDie&& on_die) {
    while (!game().is_terminal(state_)) {
      if (game().current_player(state_) == kChancePlayer) {
        const Action die = next_die();
        on_die(state_, die);
        apply(die);
      } else if (const auto answer = persons_unasked_answer()) {
        apply(*answer);
      } else {
        return;
      }
    }
  }

  State position_at(std::size_t ply) const {
    State s = game().initial_state();
    for (std::size_t i = 0; i < ply && i < history_.size(); ++i) apply_any(game(), s, history_[i]);
    return s;
  }

  // The length of the history after an undo: the last decision a person chose or, failing that,
  // the last answer a person gave to a die; nullopt when a person has decided nothing yet.
  std::optional<std::size_t> undo_target() const {
    std::optional<std::size_t> target, follow_up;
    State s = game().initial_state();
    for (std::size_t ply = 0; ply < history_.size(); ++ply) {
      const Player p = game().current_player(s);
      if (p >= 0 && !agents_[static_cast<std::size_t>(p)] && !unasked_answer(s))
        (View::is_follow_up(game(), s) ? follow_up : target) = ply;
      apply_any(game(), s, history_[ply]);
    }
    return target ? target : follow_up;
  }

  // Goes back to undo_target(); false (nothing changed) when there is none.
  bool undo() {
    const std::optional<std::size_t> target = undo_target();
    if (!target) return false;
    history_.resize(*target);
    state_ = position_at(history_.size());
    resync_agents();
    return true;
  }

  // Continues `record` (its seed and history; checked ply by ply by replaying it).  Throws
  // FileFormatError when it is another game or other rules.
  void load(const GameRecord& record) {
    if (record.game != game().info().name) {
      throw FileFormatError("that record is a game of " + record.game + ", not " +
                            std::string(game().info().name));
    }
    // The same text needs no parsing (a danelaw map uploaded to the page is known by its content
    // hash alone); other text may be the same rules written another way.
    if (record.rules != rules_game_.rules_json() &&
        G::from_rules_json(record.rules).rules_json() != rules_game_.rules_json()) {
      throw FileFormatError(
          "that record was played with other rules (start it with `sling play --load FILE`)");
    }
    state_ = replay(rules_game_, record);  // with the record's turn limit, where it has one
    seed_ = record.seed;
    history_ = record.history;
    resync_agents();
  }

  // Tells every agent the game from its start: after an undo, a load or a new agent.
  void resync_agents() {
    for (std::size_t side = 0; side < 2; ++side) {
      if (!agents_[side]) continue;
      agents_[side]->new_game(agent_seed(seed_, static_cast<int>(side)));
      State s = game().initial_state();
      for (Action a : history_) {
        agents_[side]->observe(s, a);
        apply_any(game(), s, a);
      }
    }
  }

  // The record a save writes; `players` names who played each side (empty: not named).
  GameRecord record(std::vector<std::string> players) const {
    GameRecord record{std::string(game().info().name), rules_game_.rules_json(), seed_, history_};
    record.agents = std::move(players);
    record.turn_limit = turn_limit_;
    return record;
  }

 private:
  const G& rules_game_;
  const int turn_limit_;          // as a record carries it: 0 where G has no turns
  const TurnLimited<G> limited_;  // the game stepped here
  const DiceQuestions questions_;
  std::uint64_t seed_;
  State state_;
  std::vector<Action> history_;
  std::array<AgentPtr<G>, 2> agents_;
};

}  // namespace sling::play
