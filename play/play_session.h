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
// The game itself (seed, history, dice, agents, undo, saves) is the GameTable that the page's
// WebGame holds too (game_table.h); this class is the terminal's view of it.

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
#include "play/game_table.h"
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
      : config_(std::move(config)),
        table_(game, session_turn_limit(config_), config_.dice_questions, config_.seed),
        in_(in),
        out_(out),
        status_(status) {
    for (std::size_t side = 0; side < 2; ++side) {
      if (!is_human(config_.sides[side]))
        table_.set_agent(side, make_play_agent(game, config_.sides[side], config_.solution_file,
                                               table_of(config_.sides)));
    }
    labels_ = config_.sides;
  }

  // `observer` sees the current position at once, then every new one.
  void set_observer(Observer observer) {
    observer_ = std::move(observer);
    if (observer_) observer_(game(), state());
  }

  // Puts an agent built elsewhere (or a person, with nullptr) on a side.
  void set_agent(std::size_t side, AgentPtr<G> agent) {
    labels_[side] = agent ? agent->spec() : "human";
    table_.set_agent(side, std::move(agent));
    if (observer_) observer_(game(), state());
  }

  // Continues a saved game: the record's seed and history (checked ply by ply).  A record that
  // names its players: with `restore_players` each side gets the saved player back (and the
  // change is said); without, a side whose player differs from the saved one is pointed out.
  void resume(const GameRecord& record, bool restore_players = true) {
    table_.load(record);
    if (record.agents.size() == 2) {
      for (std::size_t side = 0; side < 2; ++side) {
        const std::string& saved = record.agents[side];
        if (saved == labels_[side]) continue;
        const std::string name = display_name(game().info().sides[side]);
        if (restore_players) {
          table_.set_agent(side, is_human(saved) ? nullptr
                                                 : make_play_agent(table_.rules_game(), saved,
                                                                   config_.solution_file,
                                                                   table_of(config_.sides)));
          out_ << name << " is played by " << saved << " again, as in the save (was "
               << labels_[side] << ").\n";
          labels_[side] = saved;
        } else {
          out_ << "Note: " << name << " is played by " << labels_[side] << "; the save had "
               << saved << ".\n";
        }
      }
    }
    if (observer_) observer_(game(), state());
    shown_ = std::nullopt;
  }

  // Plays until the game ends (true) or a person quits or the input ends (false).
  bool run() {
    out_ << display_name(game().info().name) << ": ";
    for (int side = 0; side < 2; ++side) {
      out_ << (side ? "  against  " : "") << display_name(game().info().sides[side]) << " ("
           << labels_[side] << ")";
    }
    for (int side = 0; side < 2; ++side) {
      const bool repeated = side == 1 && labels_[1] == labels_[0];
      if (table_.has_agent(side) && table_.agent(side).spec() != labels_[side] && !repeated) {
        out_ << "\n  " << labels_[side] << " = " << table_.agent(side).spec();
      }
    }
    out_ << "\nSeed " << table_.seed() << ".  Type `help` at any prompt.\n";
    if (const int limit = table_.turn_limit(); limit > 0) {
      out_ << "A game still going after " << limit << " turns is a draw (--turn-limit).\n";
    }
    while (true) {
      if (game().is_terminal(state())) {
        show_board();
        out_ << style().paint(View::result(game(), state()), Colour::kBold) << "\n";
        if (!has_human() || !after_game()) return true;
        continue;  // an undo or a load after the end
      }
      const Player player = game().current_player(state());
      if (player == kChancePlayer) {
        const Action outcome = table_.next_die();
        out_ << "  " << View::describe_chance(game(), state(), outcome, style()) << "\n";
        apply(outcome);
        continue;
      }
      const auto side = static_cast<std::size_t>(player);
      if (table_.has_agent(side)) {
        if (!agent_turn(side)) return false;
        continue;
      }
      if (const auto answer = table_.unasked_answer(state())) {
        apply(*answer);  // a question the person chose not to be asked (--god-prompt)
        continue;
      }
      if (human_turn(side) == Turn::kQuit) return false;
    }
  }

  GameRecord record() const { return table_.record({labels_[0], labels_[1]}); }
  const State& state() const { return table_.state(); }

 private:
  enum class Turn { kActed, kRewound, kQuit };

  const Style& style() const { return config_.style; }

  bool has_human() const { return table_.has_person(); }
  const G& game() const { return table_.game(); }
  std::string side_label(std::size_t side) const { return display_name(game().info().sides[side]); }

  void apply(Action action) {
    table_.apply(action);
    if (observer_) observer_(game(), state());
  }

  bool read_line(std::string& line) {
    if (!std::getline(in_, line)) return false;
    if (config_.echo_input) out_ << line << "\n";
    return true;
  }

  // After a jump in the history: the die the pending question is about.
  void recall_last_roll() {
    if (table_.history().empty() || !View::is_follow_up(game(), state())) return;
    State before = game().initial_state();
    for (std::size_t ply = 0; ply + 1 < table_.history().size(); ++ply)
      apply_any(game(), before, table_.history()[ply]);
    if (game().current_player(before) == kChancePlayer) {
      out_ << "  " << View::describe_chance(game(), before, table_.history().back(), style())
           << "\n";
    }
  }

  void show_board(bool force = false) {
    if (!force && shown_ && *shown_ == state()) return;
    if constexpr (HasCompactBoard<View, G>) {
      // Within one side's run of decisions a game with a large board shows one status line;
      // `board` shows the whole board again.
      if (!force && shown_) {
        if (const std::optional<std::string> line =
                View::compact_board(game(), *shown_, state(), style())) {
          out_ << *line;
          return;  // shown_ keeps the last full board, so the next side's turn redraws it
        }
      }
    }
    out_ << "\n" << View::board(game(), state(), style());
    shown_ = state();
  }

  bool agent_turn(std::size_t side) {
    Action action = kInvalidAction;
    try {
      {
        Spinner spinner(config_.progress ? &status_ : nullptr, side_label(side) + " is thinking");
        action = table_.agent(side).act(state());
      }
      State check = state();
      game().apply_action(check, action);
    } catch (const std::exception& e) {
      out_ << "The " << side_label(side) << " agent failed: " << e.what() << "\n";
      return false;
    }
    const Analysis analysis = table_.agent(side).last_analysis();
    if (!analysis.note.empty()) out_ << "  (" << labels_[side] << ": " << analysis.note << ")\n";
    if (View::is_follow_up(game(), state())) {
      // An answer to the die just shown: one line.
      out_ << "  " << side_label(side) << " (" << labels_[side]
           << "): " << sling::action_words(game(), state(), action);
      if (!analysis.actions.empty()) {
        out_ << "  (" << (analysis.exact ? "exact" : "estimated") << " win chance "
             << percent((analysis.value + 1) / 2) << ")";
      }
      out_ << "\n";
    } else {
      out_ << style().paint(side_label(side), Colour::kBold) << " (" << labels_[side]
           << "): " << style().paint(sling::action_words(game(), state(), action), Colour::kBold)
           << "\n";
      if (!analysis.actions.empty()) {
        out_ << "  " << side_label(side) << "'s "
             << summarise_analysis(game(), state(), analysis, action) << "\n";
      }
    }
    apply(action);
    if (!game().is_terminal(state()) && game().current_player(state()) != kChancePlayer &&
        !View::is_follow_up(game(), state())) {
      show_board();
    }
    return true;
  }

  // The options listed at a decision: all legal actions, or suggestions where there are many.
  std::vector<Action> options(bool& partial) const {
    ActionList<G> legal;
    game().legal_actions(state(), legal);
    partial = legal.size() > kMaxListed;
    if (!partial) return std::vector<Action>(legal.begin(), legal.end());
    ActionList<G> suggested;
    View::suggestions(game(), state(), suggested);
    std::vector<Action> out(suggested.begin(), suggested.end());
    if (out.size() > kMaxListed) out.resize(kMaxListed);
    return out;
  }

  void show_options(const std::vector<Action>& listed, bool partial) {
    out_ << style().paint(View::prompt(game(), state()), Colour::kBold) << "\n";
    if (partial) out_ << "  Some suggestions:\n";
    for (std::size_t i = 0; i < listed.size(); ++i) {
      out_ << "  " << (i + 1 < 10 ? " " : "") << (i + 1) << ") "
           << View::option_label(game(), state(), listed[i]) << "\n";
    }
  }

  Turn human_turn(std::size_t side) {
    if (!View::is_follow_up(game(), state())) show_board();
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
        const std::vector<std::string> parts = View::split_input(game(), state(), line);
        if (parts.size() > 1) {
          if (play_parts(side, parts, listed)) return Turn::kActed;
          continue;
        }
      }
      const std::optional<Action> action = read_action(state(), line, listed);
      if (!action) continue;
      out_ << side_with_verb(game().info().sides[side], "plays", "play") << " "
           << style().paint(sling::action_words(game(), state(), *action), Colour::kBold) << "\n";
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
      out_ << View::rules_summary(game());
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
      print_game_analysis(out_, table_.rules_game(), record(), rest);
      return Turn::kActed;
    }
    if (word == "undo") {
      // Back to the last move a person chose (answers to a die, such as God's question, are part
      // of that move: to change one, undo the move and play it again, and the same dice come
      // back).
      if (!table_.undo()) {
        out_ << "Nothing to undo: no decision of yours has been played yet.\n";
        return Turn::kActed;
      }
      out_ << "Undone: back to "
           << side_label(static_cast<std::size_t>(game().current_player(state())))
           << "'s previous move (ply " << table_.history().size() + 1 << ").\n";
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
          out_ << "Saved " << table_.history().size() << " plies to " << rest << ".\n";
          return Turn::kActed;
        }
        resume(load_record(rest));
        out_ << "Loaded " << rest << ": " << table_.history().size() << " plies.\n";
        recall_last_roll();
        return Turn::kRewound;
      } catch (const std::exception& e) {
        out_ << "Cannot " << word << ": " << e.what() << "\n";
        return Turn::kActed;
      }
    }
    return std::nullopt;
  }

  // Several decisions typed on one line: all are checked first, then played; false (with the
  // reason said) if any is not understood or not legal.
  bool play_parts(std::size_t side, const std::vector<std::string>& parts,
                  const std::vector<Action>& listed) {
    std::vector<Action> actions;
    State scratch = state();
    for (std::size_t i = 0; i < parts.size(); ++i) {
      if (game().current_player(scratch) != static_cast<Player>(side)) {
        out_ << "Not legal now: '" << parts[i] << "' would not be your decision.\n";
        return false;
      }
      const std::optional<Action> action =
          read_action(scratch, trim_copy(parts[i]), i == 0 ? listed : std::vector<Action>{});
      if (!action) return false;
      actions.push_back(*action);
      game().apply_action(scratch, *action);
    }
    for (Action a : actions) {
      out_ << side_with_verb(game().info().sides[side], "plays", "play") << " "
           << style().paint(sling::action_words(game(), state(), a), Colour::kBold) << "\n";
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
      action = game().parse_action(state, line);
    } catch (const std::exception& e) {
      out_ << "Not understood: " << e.what() << ".  Type a number, an action, or `help`.\n";
      return std::nullopt;
    }
    try {
      State check = state;
      game().apply_action(check, action);
    } catch (const std::exception& e) {
      out_ << "Not legal now: " << View::explain_illegal(game(), state, action, e.what()) << ".\n";
      return std::nullopt;
    }
    return action;
  }

  void hint(const std::vector<Action>& listed, bool all = false) {
    const std::string spec =
        config_.hint == "auto" ? default_hint_spec(game(), config_.solution_file) : config_.hint;
    if (spec == "off") {
      out_ << "Hints are off in this game.\n";
      return;
    }
    try {
      Hint hint;
      {
        Spinner spinner(config_.progress ? &status_ : nullptr, "Analysing");
        hint =
            compute_hint(table_.rules_game(), game(), state(),
                         hash_combine(table_.seed(), table_.history().size()), spec, "", hinter_);
      }
      out_ << "Hint (" << (spec.empty() ? hint.source : spec) << "): ";
      if (!hint.ranked) {
        out_ << "play " << sling::action_words(game(), state(), hint.best) << "\n";
        return;
      }
      out_ << (hint.exact ? "exact" : "estimated") << " win chance " << percent(hint.win) << "\n";
      if (!hint.note.empty()) out_ << "  (" << hint.note << ")\n";
      write_hint_table(out_, hint, listed, all);
    } catch (const std::exception& e) {
      out_ << "No hint: " << e.what() << "\n";
    }
  }

  void print_log() {
    if (table_.history().empty()) {
      out_ << "Nothing has happened yet.\n";
      return;
    }
    write_move_log<View>(out_, game(), table_.history(), style());
  }

  static constexpr std::size_t kMaxListed = 24;

  PlayConfig config_;
  GameTable<G> table_;  // the seed, the history, the dice, the agents, undo and saves
  std::istream& in_;
  std::ostream& out_;
  std::ostream& status_;
  std::array<std::string, 2> labels_;  // as given: "human", a preset or a spec
  AgentPtr<G> hinter_;
  std::optional<State> shown_;
  Observer observer_;
};

}  // namespace sling::play
