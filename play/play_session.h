#pragma once
// `sling play`: one game in the terminal between people and agents, written once for every Game.
//
// The session reads commands from an std::istream and writes to an std::ostream, so tests drive
// whole games in-process with scripted input.  What it guarantees:
//   - every die is shown as it is thrown, with whose it is and what it decides (GameView);
//   - a person answers with a numbered option or the typed form; bad input says why and asks
//     again; end of input quits cleanly;
//   - `undo` goes back to the previous human decision, and the dice do not change: the die of ply
//     n is drawn from the seed's stream n, so undoing cannot be used to fish for better luck;
//   - `save FILE` writes a game record atomically; `load FILE` continues one.

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <functional>
#include <istream>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "agents/agent.h"
#include "engine/core/errors.h"
#include "engine/core/record.h"
#include "experiments/play_game.h"
#include "play/analysis_text.h"
#include "play/game_views.h"
#include "play/move_log.h"
#include "play/play_agents.h"
#include "play/play_analysis.h"
#include "play/play_config.h"
#include "play/playout_analysis.h"
#include "play/progress.h"

namespace sling::play {

template <Game G>
class PlaySession {
 public:
  using State = typename G::State;
  using View = GameView<G>;
  // Called with every new position (after each action or die): e.g. to rewrite an SVG file.
  using Observer = std::function<void(const G&, const State&)>;

  PlaySession(const G& game, PlayConfig config, std::istream& in, std::ostream& out,
              std::ostream& status)
      : rules_game_(game),
        limited_(game, session_turn_limit(config)),
        game_(limited_.game()),
        config_(std::move(config)),
        in_(in),
        out_(out),
        status_(status),
        seed_(config_.seed),
        state_(game.initial_state()) {
    for (int side = 0; side < 2; ++side) {
      if (!is_human(config_.sides[side]))
        agents_[side] = make_play_agent(rules_game_, config_.sides[side], config_.solution_file);
    }
    labels_ = config_.sides;
    resync_agents();
  }

  // `observer` sees the current position at once, then every new one.
  void set_observer(Observer observer) {
    observer_ = std::move(observer);
    if (observer_) observer_(game_, state_);
  }

  // Puts an agent built elsewhere (or a person, with nullptr) on a side.
  void set_agent(std::size_t side, AgentPtr<G> agent) {
    labels_[side] = agent ? agent->spec() : "human";
    agents_[side] = std::move(agent);
    resync_agents();
  }

  // Continues a saved game: the record's seed and history (checked ply by ply).  A record that
  // names its players: with `restore_players` each side gets the saved player back (and the
  // change is said); without, a side whose player differs from the saved one is pointed out.
  void resume(const GameRecord& record, bool restore_players = true) {
    if (record.game != game_.info().name) {
      throw FileFormatError("that record is a game of " + record.game + ", not " +
                            std::string(game_.info().name));
    }
    if (G::from_rules_json(record.rules).rules_json() != game_.rules_json()) {
      throw FileFormatError(
          "that record was played with other rules (start it with "
          "`sling play --load FILE`)");
    }
    const State final_state = replay(rules_game_, record);
    if (record.agents.size() == 2) {
      for (std::size_t side = 0; side < 2; ++side) {
        const std::string& saved = record.agents[side];
        if (saved == labels_[side]) continue;
        const std::string name = display_name(game_.info().sides[side]);
        if (restore_players) {
          agents_[side] =
              is_human(saved) ? nullptr
                              : make_play_agent(rules_game_, saved, config_.solution_file);
          out_ << name << " is played by " << saved << " again, as in the save (was "
               << labels_[side] << ").\n";
          labels_[side] = saved;
        } else {
          out_ << "Note: " << name << " is played by " << labels_[side] << "; the save had "
               << saved << ".\n";
        }
      }
    }
    seed_ = record.seed;
    history_ = record.history;
    state_ = final_state;
    resync_agents();
    shown_ = std::nullopt;
  }

  // Plays until the game ends (true) or a person quits or the input ends (false).
  bool run() {
    out_ << display_name(game_.info().name) << ": ";
    for (int side = 0; side < 2; ++side) {
      out_ << (side ? "  against  " : "") << display_name(game_.info().sides[side]) << " ("
           << labels_[side] << ")";
    }
    for (int side = 0; side < 2; ++side) {
      const bool repeated = side == 1 && labels_[1] == labels_[0];
      if (agents_[side] && agents_[side]->spec() != labels_[side] && !repeated) {
        out_ << "\n  " << labels_[side] << " = " << agents_[side]->spec();
      }
    }
    out_ << "\nSeed " << seed_ << ".  Type `help` at any prompt.\n";
    if (const int limit = recorded_turn_limit<G>(session_turn_limit(config_)); limit > 0) {
      out_ << "A game still going after " << limit << " turns is a draw (--turn-limit).\n";
    }
    while (true) {
      if (game_.is_terminal(state_)) {
        show_board();
        out_ << style().paint(View::result(game_, state_), Colour::kBold) << "\n";
        if (!has_human() || !after_game()) return true;
        continue;  // an undo or a load after the end
      }
      const Player player = game_.current_player(state_);
      if (player == kChancePlayer) {
        const Action outcome = roll_dice();
        out_ << "  " << View::describe_chance(game_, state_, outcome, style()) << "\n";
        apply(outcome);
        continue;
      }
      const auto side = static_cast<std::size_t>(player);
      if (agents_[side]) {
        if (!agent_turn(side)) return false;
        continue;
      }
      if (const auto answer = unasked_answer(state_)) {
        apply(*answer);  // a question the person chose not to be asked (--god-prompt)
        continue;
      }
      if (human_turn(side) == Turn::kQuit) return false;
    }
  }

  GameRecord record() const {
    return GameRecord{std::string(game_.info().name),
                      game_.rules_json(),
                      seed_,
                      history_,
                      {labels_[0], labels_[1]},
                      recorded_turn_limit<G>(session_turn_limit(config_))};
  }
  const State& state() const { return state_; }

 private:
  enum class Turn { kActed, kRewound, kQuit };

  const Style& style() const { return config_.style; }

  // The answer given for a person who is not asked (the duel's God prompt after a good roll).
  std::optional<Action> unasked_answer(const State& s) const {
    if constexpr (requires { View::unasked_answer(game_, s, config_.dice_questions); }) {
      return View::unasked_answer(game_, s, config_.dice_questions);
    } else {
      return std::nullopt;
    }
  }
  bool has_human() const { return !agents_[0] || !agents_[1]; }
  std::string side_label(std::size_t side) const { return display_name(game_.info().sides[side]); }

  // The die of ply n comes from stream n of the seed, the convention every path shares
  // (engine/core/dice.h): the same history gives the same dice, here and in `match`.
  Action roll_dice() const { return sling::roll_dice(game_, state_, seed_, history_.size()); }

  void apply(Action action) {
    apply_at_table(game_, state_, history_, agents_, action);
    if (observer_) observer_(game_, state_);
  }

  void resync_agents() {
    for (int side = 0; side < 2; ++side) {
      if (!agents_[side]) continue;
      agents_[side]->new_game(agent_seed(seed_, side));
      State s = game_.initial_state();
      for (Action a : history_) {
        agents_[side]->observe(s, a);
        apply_any(game_, s, a);
      }
    }
    if (observer_) observer_(game_, state_);
  }

  bool read_line(std::string& line) {
    if (!std::getline(in_, line)) return false;
    if (config_.echo_input) out_ << line << "\n";
    return true;
  }

  // After a jump in the history: the die the pending question is about.
  void recall_last_roll() {
    if (history_.empty() || !View::is_follow_up(game_, state_)) return;
    State before = game_.initial_state();
    for (std::size_t ply = 0; ply + 1 < history_.size(); ++ply)
      apply_any(game_, before, history_[ply]);
    if (game_.current_player(before) == kChancePlayer) {
      out_ << "  " << View::describe_chance(game_, before, history_.back(), style()) << "\n";
    }
  }

  void rebuild_state() {
    state_ = game_.initial_state();
    for (Action a : history_) apply_any(game_, state_, a);
  }

  void show_board(bool force = false) {
    if (!force && shown_ && *shown_ == state_) return;
    if constexpr (HasCompactBoard<View, G>) {
      // Within one side's run of decisions a game with a large board shows one status line;
      // `board` shows the whole board again.
      if (!force && shown_) {
        if (const std::optional<std::string> line =
                View::compact_board(game_, *shown_, state_, style())) {
          out_ << *line;
          return;  // shown_ keeps the last full board, so the next side's turn redraws it
        }
      }
    }
    out_ << "\n" << View::board(game_, state_, style());
    shown_ = state_;
  }

  bool agent_turn(std::size_t side) {
    Action action = kInvalidAction;
    try {
      {
        Spinner spinner(config_.progress ? &status_ : nullptr, side_label(side) + " is thinking");
        action = agents_[side]->act(state_);
      }
      State check = state_;
      game_.apply_action(check, action);
    } catch (const std::exception& e) {
      out_ << "The " << side_label(side) << " agent failed: " << e.what() << "\n";
      return false;
    }
    const Analysis analysis = agents_[side]->last_analysis();
    if (View::is_follow_up(game_, state_)) {
      // An answer to the die just shown: one line.
      out_ << "  " << side_label(side) << " (" << labels_[side]
           << "): " << game_.action_to_string(state_, action);
      if (!analysis.actions.empty()) {
        out_ << "  (" << (analysis.exact ? "exact" : "estimated") << " win chance "
             << percent((analysis.value + 1) / 2) << ")";
      }
      out_ << "\n";
    } else {
      out_ << style().paint(side_label(side), Colour::kBold) << " (" << labels_[side]
           << "): " << style().paint(game_.action_to_string(state_, action), Colour::kBold) << "\n";
      if (!analysis.actions.empty()) {
        out_ << "  " << side_label(side) << "'s "
             << summarise_analysis(game_, state_, analysis, action) << "\n";
      }
    }
    apply(action);
    if (!game_.is_terminal(state_) && game_.current_player(state_) != kChancePlayer &&
        !View::is_follow_up(game_, state_)) {
      show_board();
    }
    return true;
  }

  // The options listed at a decision: all legal actions, or suggestions where there are many.
  std::vector<Action> options(bool& partial) const {
    ActionList<G> legal;
    game_.legal_actions(state_, legal);
    partial = legal.size() > kMaxListed;
    if (!partial) return std::vector<Action>(legal.begin(), legal.end());
    ActionList<G> suggested;
    View::suggestions(game_, state_, suggested);
    std::vector<Action> out(suggested.begin(), suggested.end());
    if (out.size() > kMaxListed) out.resize(kMaxListed);
    return out;
  }

  void show_options(const std::vector<Action>& listed, bool partial) {
    out_ << style().paint(View::prompt(game_, state_), Colour::kBold) << "\n";
    if (partial) out_ << "  Some suggestions:\n";
    for (std::size_t i = 0; i < listed.size(); ++i) {
      out_ << "  " << (i + 1 < 10 ? " " : "") << (i + 1) << ") "
           << View::option_label(game_, state_, listed[i]) << "\n";
    }
  }

  Turn human_turn(std::size_t side) {
    if (!View::is_follow_up(game_, state_)) show_board();
    bool partial = false;
    const std::vector<Action> listed = options(partial);
    show_options(listed, partial);
    while (true) {
      out_ << side_label(side) << "> " << std::flush;
      std::string line;
      if (!read_line(line)) {
        out_ << "\nEnd of input: the game is left unfinished.\n";
        return Turn::kQuit;
      }
      line = trim_copy(line);
      if (line.empty()) continue;
      const std::string word = lower_copy(line.substr(0, line.find(' ')));
      const std::string rest = trim_copy(line.substr(std::min(line.size(), word.size())));
      if (word == "quit" || word == "exit") {
        out_ << "Game left unfinished.\n";
        return Turn::kQuit;
      }
      if (const auto handled = common_command(word, rest)) {
        if (*handled == Turn::kRewound) return Turn::kRewound;
        if (word == "board") show_options(listed, partial);
        continue;
      }
      if (word == "hint") {
        hint(listed, lower_copy(rest) == "all");
        continue;
      }
      if constexpr (HasSplitInput<View, G>) {
        const std::vector<std::string> parts = View::split_input(game_, state_, line);
        if (parts.size() > 1) {
          if (play_parts(side, parts, listed)) return Turn::kActed;
          continue;
        }
      }
      const std::optional<Action> action = read_action(state_, line, listed);
      if (!action) continue;
      out_ << side_with_verb(game_.info().sides[side], "plays", "play") << " "
           << style().paint(game_.action_to_string(state_, *action), Colour::kBold) << "\n";
      apply(*action);
      return Turn::kActed;
    }
  }

  // After the end of a game with a person at the board: save, log, undo or load, or leave.
  bool after_game() {
    out_ << "The game is over: `analyse [FILE.svg]` (your errors and your luck), `save FILE`, "
            "`log`, `undo`, `load FILE` or `quit`.\n";
    while (true) {
      out_ << "> " << std::flush;
      std::string line;
      if (!read_line(line)) return false;
      line = trim_copy(line);
      if (line.empty()) continue;
      const std::string word = lower_copy(line.substr(0, line.find(' ')));
      const std::string rest = trim_copy(line.substr(std::min(line.size(), word.size())));
      if (word == "quit" || word == "exit") return false;
      if (const auto handled = common_command(word, rest)) {
        if (*handled == Turn::kRewound) return true;
        continue;
      }
      out_ << "The game is over; type `quit` to leave (or `help`).\n";
    }
  }

  // Commands valid at every prompt; kActed = handled (stay at the prompt), kRewound = the
  // position changed; nullopt = not a command.
  std::optional<Turn> common_command(const std::string& word, const std::string& rest) {
    if (word == "help" || word == "?") {
      out_ << kPlayHelp;
      return Turn::kActed;
    }
    if (word == "rules") {
      out_ << View::rules_summary(game_);
      return Turn::kActed;
    }
    if (word == "board") {
      show_board(true);
      return Turn::kActed;
    }
    if (word == "log") {
      print_log();
      return Turn::kActed;
    }
    if (word == "analyse" || word == "analyze") {
      print_game_analysis(out_, rules_game_, record(), rest);
      return Turn::kActed;
    }
    if (word == "undo") {
      if (!undo()) {
        out_ << "Nothing to undo: no decision of yours has been played yet.\n";
        return Turn::kActed;
      }
      out_ << "Undone: back to "
           << side_label(static_cast<std::size_t>(game_.current_player(state_)))
           << "'s previous move (ply " << history_.size() + 1 << ").\n";
      shown_ = std::nullopt;
      recall_last_roll();
      return Turn::kRewound;
    }
    if (word == "save" || word == "load") {
      if (rest.empty()) {
        out_ << "Usage: " << word << " FILE\n";
        return Turn::kActed;
      }
      try {
        if (word == "save") {
          save_record(rest, record());
          out_ << "Saved " << history_.size() << " plies to " << rest << ".\n";
          return Turn::kActed;
        }
        resume(load_record(rest));
        out_ << "Loaded " << rest << ": " << history_.size() << " plies.\n";
        recall_last_roll();
        return Turn::kRewound;
      } catch (const std::exception& e) {
        out_ << "Cannot " << word << ": " << e.what() << "\n";
        return Turn::kActed;
      }
    }
    return std::nullopt;
  }

  // Truncates the history to the last move a person chose (answers to a die, such as God's
  // question, are part of that move: to change one, undo the move and play it again, and the same
  // dice come back); false if a person has not decided anything yet.
  bool undo() {
    std::optional<std::size_t> target, follow_up;
    State s = game_.initial_state();
    for (std::size_t ply = 0; ply < history_.size(); ++ply) {
      const Player p = game_.current_player(s);
      if (p >= 0 && !agents_[static_cast<std::size_t>(p)] && !unasked_answer(s)) {
        (View::is_follow_up(game_, s) ? follow_up : target) = ply;
      }
      apply_any(game_, s, history_[ply]);
    }
    if (!target) target = follow_up;
    if (!target) return false;
    history_.resize(*target);
    rebuild_state();
    resync_agents();
    return true;
  }

  // Several decisions typed on one line: all are checked first, then played; false (with the
  // reason said) if any is not understood or not legal.
  bool play_parts(std::size_t side, const std::vector<std::string>& parts,
                  const std::vector<Action>& listed) {
    std::vector<Action> actions;
    State scratch = state_;
    for (std::size_t i = 0; i < parts.size(); ++i) {
      if (game_.current_player(scratch) != static_cast<Player>(side)) {
        out_ << "Not legal now: '" << parts[i] << "' would not be your decision.\n";
        return false;
      }
      const std::optional<Action> action =
          read_action(scratch, trim_copy(parts[i]), i == 0 ? listed : std::vector<Action>{});
      if (!action) return false;
      actions.push_back(*action);
      game_.apply_action(scratch, *action);
    }
    for (Action a : actions) {
      out_ << side_with_verb(game_.info().sides[side], "plays", "play") << " "
           << style().paint(game_.action_to_string(state_, a), Colour::kBold) << "\n";
      apply(a);
    }
    return true;
  }

  std::optional<Action> read_action(const State& state, const std::string& line,
                                    const std::vector<Action>& listed) {
    if (std::all_of(line.begin(), line.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      const std::size_t n = line.size() > 6 ? 0 : std::stoul(line);
      if (n >= 1 && n <= listed.size()) return listed[n - 1];
      out_ << "There is no option " << line << " (choose 1 to " << listed.size()
           << ", or type an action; `help` lists the commands).\n";
      return std::nullopt;
    }
    Action action = kInvalidAction;
    try {
      action = game_.parse_action(state, line);
    } catch (const std::exception& e) {
      out_ << "Not understood: " << e.what() << ".  Type a number, an action, or `help`.\n";
      return std::nullopt;
    }
    try {
      State check = state;
      game_.apply_action(check, action);
    } catch (const std::exception& e) {
      out_ << "Not legal now: " << View::explain_illegal(game_, state, action, e.what()) << ".\n";
      return std::nullopt;
    }
    return action;
  }

  void hint(const std::vector<Action>& listed, bool all = false) {
    const std::string spec =
        config_.hint == "auto" ? default_hint_spec(game_, config_.solution_file) : config_.hint;
    if (spec == "off") {
      out_ << "Hints are off in this game.\n";
      return;
    }
    try {
      Analysis analysis;
      Action best = kInvalidAction;
      std::string source;
      {
        Spinner spinner(config_.progress ? &status_ : nullptr, "Analysing");
        if (spec.empty()) {
          // No search agent in this build: flat Monte Carlo with rule-of-thumb playouts.
          const PlayoutOptions options;
          analysis = playout_analysis(game_, state_, hash_combine(seed_, history_.size()), options);
          source = std::to_string(options.playouts) + " rule-of-thumb playouts per action, " +
                   "each value within about +/-" +
                   percent(1.0 / std::sqrt(static_cast<double>(options.playouts))) +
                   " (two standard errors)";
          best = analysis.actions.empty() ? kInvalidAction : analysis.actions.front().action;
        } else {
          if (!hinter_) hinter_ = make_play_agent(rules_game_, spec);
          hinter_->new_game(hash_combine(seed_, history_.size()));
          best = hinter_->act(state_);
          analysis = hinter_->last_analysis();
          source = spec;  // as asked; the agent spells out every default
        }
      }
      out_ << "Hint (" << source << "): ";
      if (analysis.actions.empty()) {
        out_ << "play " << game_.action_to_string(state_, best) << "\n";
        return;
      }
      out_ << (analysis.exact ? "exact" : "estimated") << " win chance "
           << percent((analysis.value + 1) / 2) << "\n";
      write_hint_table(out_, game_, state_, analysis, best, listed, all, spec.empty());
    } catch (const std::exception& e) {
      out_ << "No hint: " << e.what() << "\n";
    }
  }

  void print_log() {
    if (history_.empty()) {
      out_ << "Nothing has happened yet.\n";
      return;
    }
    write_move_log<View>(out_, game_, history_, style());
  }

  static constexpr std::size_t kMaxListed = 24;

  const G& rules_game_;       // the agents' game: the rules alone
  const TurnLimited<G> limited_;  // the game played: the rules and the session's turn limit
  const G& game_;
  PlayConfig config_;
  std::istream& in_;
  std::ostream& out_;
  std::ostream& status_;
  std::uint64_t seed_;
  State state_;
  std::vector<Action> history_;
  std::array<AgentPtr<G>, 2> agents_;
  std::array<std::string, 2> labels_;  // as given: "human", a preset or a spec
  AgentPtr<G> hinter_;
  std::optional<State> shown_;
  Observer observer_;
};

}  // namespace sling::play
