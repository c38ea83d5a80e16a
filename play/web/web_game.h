#pragma once
// WebGame<G>: one game of `sling serve`, written once for every Game.  The game itself (the seed,
// the history, the dice of ply n from stream n of the seed, the agents, undo to the previous human
// decision, the record a save writes) is the GameTable the terminal's session holds too
// (play/game_table.h); this class is the page's view of it: JSON for the page, requests checked
// against what it listed as legal, and the agents' moves, hints and estimates on server workers.

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <type_traits>
#include <unordered_set>
#include <vector>

#include "agents/agent.h"
#include "engine/core/game_limit.h"
#include "engine/core/record.h"
#include "experiments/analysis/json_fields.h"
#include "experiments/play_game.h"
#include "play/game_table.h"
#include "play/game_views.h"
#include "play/hint.h"
#include "play/play_agents.h"
#include "play/play_session.h"
#include "play/web/web_analysis.h"
#include "play/web/web_estimates.h"
#include "play/web/web_log.h"
#include "play/web/web_moves.h"
#include "play/web/web_session.h"
#include "play/web/web_views.h"

namespace sling::web {

struct WebGameConfig {
  std::array<std::string, 2> sides{"human", "normal"};  // "human", a preset or an agent spec
  std::uint64_t seed = 1;
  std::string solution_file;  // the duel's exact solution (`strong` and hints), or ""
  double ai_seconds = 10;     // time budget of a searching agent's move (0 = none)
  int ai_delay_ms = 0;        // a pause before each agent decision (watching AI against AI)
  bool replay = false;        // a record to step through: nothing can be played
  // The duel's God prompt, by the terminal's rule (`--god-prompt`): after every roll, or only
  // after one that went against David (the others are accepted for him).
  play::DiceQuestions dice_questions = play::DiceQuestions::kAfterBadRolls;
  bool win_strip = false;  // the strong agent's estimate after every decision (the page's strip)
};

// `spec` with a time budget when it names a search that takes one and has none set, so that an
// agent's move cannot hold a game for ever.  The iteration budget still decides the move whenever
// it is reached first, which keeps the game reproducible on any machine fast enough.
inline std::string with_time_budget(const std::string& spec, double seconds) {
  if (seconds <= 0) return spec;
  const AgentSpec parsed = parse_agent_spec(spec);
  if ((parsed.name != "mcts" && parsed.name != "expectimax") || parsed.options.count("time"))
    return spec;
  char budget[32];
  std::snprintf(budget, sizeof budget, "time=%g", seconds);
  return spec + (spec.find(':') == std::string::npos ? ":" : ",") + budget;
}

template <Game G>
class WebGame final : public WebSession {
 public:
  using State = typename G::State;
  using View = play::GameView<G>;

  WebGame(G game, WebGameConfig config, const GameRecord* record = nullptr)
      : rules_game_(std::move(game)),
        config_(std::move(config)),
        table_(rules_game_, turn_limit_for(config_, record), config_.dice_questions, config_.seed) {
    if (!config_.replay) {
      for (std::size_t side = 0; side < 2; ++side) {
        if (play::is_human(config_.sides[side])) continue;
        const std::string spec = with_time_budget(
            play::resolve_preset(rules_game_, config_.sides[side], config_.solution_file),
            config_.ai_seconds);
        // A page always has a person at it, playing or watching, and the request that creates
        // the game must not wait minutes: agents prepare while they play.
        try {
          table_.set_agent(side, play::make_play_agent(rules_game_, spec, config_.solution_file,
                                                       play::Table::kWithPerson));
        } catch (const std::exception& e) {
          throw bad_request(display(side) + ": " + e.what());
        }
      }
    }
    for (std::size_t side = 0; side < 2; ++side) {
      // A replay's people are those its record names so (a tournament's record names agents).
      persons_[side] = config_.replay ? record && record->agents.size() == 2 &&
                                            play::is_human(record->agents[side])
                                      : !table_.has_agent(side);
    }
    if (record) {
      try {
        table_.load(*record);
        count_positions();
      } catch (const std::exception& e) {
        throw bad_request(e.what());
      }
    }
    if (!config_.replay) roll_dice();
  }

  std::string state_json(std::int64_t view_ply) override {
    std::lock_guard lock(mutex_);
    if (view_ply > static_cast<std::int64_t>(table_.history().size()))
      throw bad_request("ply " + std::to_string(view_ply) + " is past the end (" +
                        std::to_string(table_.history().size()) + " plies)");
    const std::size_t ply =
        view_ply < 0 ? table_.history().size() : static_cast<std::size_t>(view_ply);
    const State s = ply == table_.history().size() ? table_.state() : position_at(ply);
    const bool current = ply == table_.history().size() && !config_.replay;
    rapidjson::StringBuffer buffer;
    JsonWriter out(buffer);
    out.StartObject();
    write_field(out, "game", game().info().name);
    write_field(out, "mode", config_.replay ? "replay" : "play");
    write_field(out, "seed", std::to_string(table_.seed()));
    write_field(out, "ply", ply);
    write_field(out, "plies", table_.history().size());
    write_key(out, "sides");
    out.StartArray();
    for (std::size_t side = 0; side < 2; ++side) {
      out.StartObject();
      write_field(out, "name", display(side));
      write_field(out, "player", config_.replay ? "record" : config_.sides[side]);
      write_field(out, "human", !config_.replay && !table_.has_agent(side));
      write_field(out, "spec", table_.has_agent(side) ? table_.agent(side).spec() : "");
      out.EndObject();
    }
    out.EndArray();
    const bool over = game().is_terminal(s);
    write_field(out, "over", over);
    write_field(out, "result", over ? View::result(game(), s) : "");
    write_key(out, "end_reason");
    if constexpr (HasEndReason<G>) {
      write_string(out, over ? std::string(game().end_reason(s)) : "");
    } else {
      write_string(out, "");
    }
    write_field(out, "turn_limit", table_.turn_limit());
    const Player player = over ? kChancePlayer : game().current_player(s);
    write_field(out, "to_move", over ? -1 : player);
    write_field(out, "prompt", !over && player >= 0 ? View::prompt(game(), s) : "");
    write_field(out, "thinking", thinking_ && current);
    write_field(out, "standoff", standoff_ && current && config_.ai_delay_ms > 0);
    write_field(out, "ai_error", ai_error_);
    const bool human_turn = current && !over && player >= 0 &&
                            !table_.has_agent(static_cast<std::size_t>(player)) && !thinking_;
    write_field(out, "human_turn", human_turn);
    write_field(out, "point_input", human_turn && picks_points(game(), s));
    write_key(out, "actions");
    out.StartArray();
    if (human_turn && !picks_points(game(), s)) {
      ActionList<G> legal;
      game().legal_actions(s, legal);
      for (Action a : legal) {
        out.StartObject();
        write_field(out, "code", a);
        write_field(out, "label", View::option_label(game(), s, a));
        write_action_fields(out, game(), s, a);
        out.EndObject();
      }
    }
    out.EndArray();
    write_field(out, "can_undo", current && !thinking_ && undo_target().has_value());
    write_key(out, "board");
    write_board(out, game(), s);
    write_log_and_trails(out, game(), table_.history(), ply, answered_for_person());
    write_analysis(out, current);
    write_eval(out, current && !over && player >= 0 && is_god_prompt(game(), s));
    out.EndObject();
    return std::string(buffer.GetString(), buffer.GetSize());
  }

  void act(const rapidjson::Value& request) override {
    const std::optional<std::int64_t> code = integer_field(request, "action");
    if (!code) throw bad_request("'action' is missing");
    std::lock_guard lock(mutex_);
    check_human_turn(request);
    ActionList<G> legal;
    game().legal_actions(table_.state(), legal);
    if (*code < 0 ||
        std::find(legal.begin(), legal.end(), static_cast<Action>(*code)) == legal.end())
      throw bad_request("action " + std::to_string(*code) + " is not legal now");
    apply(static_cast<Action>(*code));
    roll_dice();
  }

  std::string point(const rapidjson::Value& request) override {
    // A game whose points can be picked has a nearest_destination (play/web/web_views.h).
    if constexpr (requires { nearest_destination(game(), table_.state(), 0.0, 0.0); }) {
      const std::optional<double> x = number_field(request, "x");
      const std::optional<double> y = number_field(request, "y");
      if (!x || !y) throw bad_request("a point needs 'x' and 'y' in centimetres");
      if (!std::isfinite(*x) || !std::isfinite(*y)) throw bad_request("the point is not finite");
      std::lock_guard lock(mutex_);
      check_human_turn(request);
      const std::optional<PointChoice> choice = nearest_destination(game(), table_.state(), *x, *y);
      if (!choice) throw conflict("no destination is to be chosen now");
      rapidjson::StringBuffer buffer;
      JsonWriter out(buffer);
      out.StartObject();
      write_field(out, "action", choice->action);
      write_field(out, "label", View::option_label(game(), table_.state(), choice->action));
      write_field(out, "x", choice->x_cm);
      write_field(out, "y", choice->y_cm);
      write_field(out, "move_cm", std::round(choice->move_cm * 100) / 100);
      write_field(out, "gap_cm", std::round(choice->gap_cm * 100) / 100);
      out.EndObject();
      return std::string(buffer.GetString(), buffer.GetSize());
    } else {
      (void)request;
      throw bad_request(std::string(game().info().name) + " has no points to pick");
    }
  }

  void undo() override {
    std::lock_guard lock(mutex_);
    check_playable();
    if (!table_.undo()) throw conflict("there is no decision of yours to undo");
    count_positions();
    estimates_.undo_to(table_.ply());
    ai_error_.clear();
    analysis_ = {};
  }

  void request_hint() override {
    std::lock_guard lock(mutex_);
    check_playable();
    if (game().is_terminal(table_.state()) || game().current_player(table_.state()) < 0)
      throw conflict("there is no decision to analyse");
    if (hint_running_) throw conflict("a hint is already being computed");
    hint_running_ = true;
    hint_ = {};
  }

  std::string record_json() override {
    std::lock_guard lock(mutex_);
    return record_to_json(record_locked());
  }

  bool request_analysis() override {
    std::lock_guard lock(mutex_);
    if (!config_.replay && !game().is_terminal(table_.state()))
      throw conflict("the game is not over: it is analysed at its end, or in a replay");
    return game_analysis_.request(table_.history().size());
  }

  void run_analysis() override {
    GameRecord record;
    std::vector<bool> automatic;
    {
      std::lock_guard lock(mutex_);
      if (!game_analysis_.running()) return;
      record = record_locked();
      automatic = answered_for_person();
    }
    auto result = WebAnalysis<G>::compute(rules_game_, record, config_.solution_file, automatic);
    std::lock_guard lock(mutex_);
    game_analysis_.finish(std::move(result));
  }

  std::string analysis_json() override {
    std::lock_guard lock(mutex_);
    return game_analysis_.json(table_.history().size());
  }

  bool ai_due() override {
    std::lock_guard lock(mutex_);
    return ai_due_locked();
  }

  bool run_ai_step() override {
    const std::optional<WorkerPosition> position =
        take_position_if([&] { return ai_due_locked(); }, [&] { thinking_ = true; });
    if (!position) return false;
    const State& state = position->state;
    const auto side = static_cast<std::size_t>(game().current_player(state));
    // The agent is used by this thread alone while thinking_ is set: requests that would touch
    // it (undo, load, an action) are refused until the move is made.
    Action action = kInvalidAction;
    Analysis analysis;
    std::string error;
    try {
      action = table_.agent(side).act(state);
      State check = state;
      game().apply_action(check, action);
      analysis = table_.agent(side).last_analysis();
    } catch (const std::exception& e) {
      error = display(side) + "'s agent failed: " + e.what();
    }
    std::lock_guard lock(mutex_);
    thinking_ = false;
    if (!error.empty()) {
      ai_error_ = error;
      return false;
    }
    analysis_[side] = describe_analysis(state, side, action, analysis);
    apply(action);
    roll_dice();
    return ai_due_locked();
  }

  void run_hint() override {
    // Nothing to mark begun: request_hint set hint_running_ already.
    const std::optional<WorkerPosition> position =
        take_position_if([&] { return hint_running_; }, [] {});
    if (!position) return;
    const auto& [state, ply] = *position;
    HintResult result;
    result.ply = ply;
    try {
      // The terminal's hint (play/hint.h), with the page's time budget on a search.
      std::string spec = play::default_hint_spec(rules_game_, config_.solution_file);
      if (!spec.empty()) spec = with_time_budget(spec, config_.ai_seconds);
      const play::Hint hint =
          play::compute_hint(rules_game_, game(), state, hash_combine(table_.seed(), ply), spec,
                             config_.solution_file, hinter_);
      result.source = hint.source;
      result.name = hint.name;
      result.exact = hint.exact;
      // An agent that compared nothing here (a rule-of-thumb move) gives its move alone.
      result.estimated = hint.ranked;
      result.win = hint.win;
      result.count_word = hint.count_word;
      result.note = hint.note;
      for (const play::HintLine& line : hint.lines) {
        result.actions.push_back({line.action, line.text, line.win, line.count});
        result.merged.push_back(line.merged);
        result.places.push_back(action_place(game(), state, line.action));
      }
    } catch (const std::exception& e) {
      result.error = e.what();
    }
    std::lock_guard lock(mutex_);
    hint_running_ = false;
    hint_ = std::move(result);
  }

  // A watched game's pause before each decision, none in a stand-off: a position that has come
  // back is played at full speed until something new happens (two `normal` duel agents can
  // repeat the same moves for thousands of plies before the turn limit).
  int ai_delay_ms() const override { return standoff_ ? 0 : config_.ai_delay_ms; }

  bool eval_due() override {
    std::lock_guard lock(mutex_);
    return eval_due_locked();
  }

  // The strong agent's estimate of the current position (web_estimates.h).
  void run_eval() override {
    const std::optional<WorkerPosition> position =
        take_position_if([&] { return eval_due_locked(); }, [&] { estimates_.start(); });
    if (!position) return;
    const auto& [state, ply] = *position;
    const std::string spec = with_time_budget(
        play::resolve_preset(rules_game_, "strong", config_.solution_file), config_.ai_seconds);
    auto estimate = estimates_.compute(rules_game_, state, ply, table_.seed(), spec,
                                       config_.solution_file, play::Table::kWithPerson);
    std::lock_guard lock(mutex_);
    estimates_.finish(std::move(estimate));
  }

  std::string save_name() override {
    std::lock_guard lock(mutex_);
    return "sling-" + std::string(game().info().name) + "-seed" + std::to_string(table_.seed()) +
           "-ply" + std::to_string(table_.history().size()) + ".json";
  }

 private:
  GameRecord record_locked() const {
    // Who plays each side, as a terminal save records it, so that `sling play --load` brings
    // back the same opponent.
    return table_.record(config_.replay
                             ? std::vector<std::string>{}
                             : std::vector<std::string>{config_.sides[0], config_.sides[1]});
  }

  // Games between agents end (engine/core/game_limit.h): a game without a person is played to the
  // limit of games between agents; a save or a replay keeps the limit it was played to.
  static int turn_limit_for(const WebGameConfig& config, const GameRecord* record) {
    if (record && record->turn_limit > 0) return recorded_turn_limit<G>(record->turn_limit);
    const bool person = play::is_human(config.sides[0]) || play::is_human(config.sides[1]);
    return config.replay || person ? 0 : recorded_turn_limit<G>(kDefaultAgentTurnLimit);
  }

  const G& game() const { return table_.game(); }

  // For each ply of the history: an answer given for a person to a question they chose not to be
  // asked (the duel's God prompt after a roll in David's favour).  Not the person's decision: the
  // log says so and the analysis does not rate it.  A replay does not know the setting its game
  // was played with and takes the server's.
  std::vector<bool> answered_for_person() const {
    const std::vector<Action>& history = table_.history();
    std::vector<bool> marks(history.size(), false);
    if (!persons_[0] && !persons_[1]) return marks;
    State s = game().initial_state();
    for (std::size_t ply = 0; ply < history.size(); ++ply) {
      const Player p = game().current_player(s);
      marks[ply] = p >= 0 && persons_[static_cast<std::size_t>(p)] &&
                   table_.unasked_answer(s) == std::optional<Action>(history[ply]);
      apply_any(game(), s, history[ply]);
    }
    return marks;
  }

  // The position a server worker's job (an agent's move, a hint, an estimate) computes from: it is
  // copied under the lock and the job runs without it, so that the page's requests are answered
  // meanwhile.
  struct WorkerPosition {
    State state;
    std::size_t ply = 0;
  };
  // Under the lock: when `due()` holds, `start()` marks the job begun (so that no other worker
  // takes it) and the position is copied; nullopt when there is nothing to do.
  template <class Due, class Start>
  std::optional<WorkerPosition> take_position_if(Due due, Start start) {
    std::lock_guard lock(mutex_);
    if (!due()) return std::nullopt;
    start();
    return WorkerPosition{table_.state(), table_.ply()};
  }

  std::string display(std::size_t side) const {
    return play::display_name(game().info().sides[side]);
  }

  // An estimate is wanted where a person faces God's question (its stakes) and, with the strip
  // on, at every decision; one per position.
  bool eval_due_locked() const {
    if (config_.replay || game().is_terminal(table_.state())) return false;
    const Player p = game().current_player(table_.state());
    if (p < 0) return false;
    const bool stakes =
        !table_.has_agent(static_cast<std::size_t>(p)) && is_god_prompt(game(), table_.state());
    return estimates_.due(table_.history().size(), stakes || config_.win_strip);
  }

  void write_eval(JsonWriter& out, bool god_prompt) const {
    write_field(out, "eval_pending",
                !config_.replay && (estimates_.running() || eval_due_locked()));
    estimates_.write(out, table_.history().size(), god_prompt, config_.win_strip);
  }

  bool ai_due_locked() const {
    if (config_.replay || thinking_ || !ai_error_.empty() || game().is_terminal(table_.state()))
      return false;
    const Player p = game().current_player(table_.state());
    return p >= 0 && table_.has_agent(static_cast<std::size_t>(p));
  }

  void check_playable() const {
    if (config_.replay) throw conflict("this is a replay: nothing can be played");
    if (thinking_) throw conflict("the computer is thinking; wait for its move");
  }

  void check_human_turn(const rapidjson::Value& request) const {
    check_playable();
    if (const auto ply = integer_field(request, "ply");
        ply && *ply != static_cast<std::int64_t>(table_.history().size())) {
      throw conflict("the game has moved on since (ply " + std::to_string(table_.history().size()) +
                     ")");
    }
    if (game().is_terminal(table_.state())) throw conflict("the game is over");
    const Player p = game().current_player(table_.state());
    if (p < 0 || table_.has_agent(static_cast<std::size_t>(p)))
      throw conflict("it is not a person's turn to act");
  }

  State position_at(std::size_t ply) const { return table_.position_at(ply); }

  void apply(Action action) {
    table_.apply(action);
    note_position();
  }

  // Whether the position at the start of this turn has come before (HasRepetition games).
  void note_position() {
    if constexpr (HasRepetition<G>) {
      if (const std::uint64_t key = game().repetition_key(table_.state()); key != 0)
        standoff_ = !seen_positions_.insert(key).second;
    }
  }
  void count_positions() {
    seen_positions_.clear();
    standoff_ = false;
    if constexpr (HasRepetition<G>) {
      State s = game().initial_state();
      for (Action a : table_.history()) {
        apply_any(game(), s, a);
        if (const std::uint64_t key = game().repetition_key(s); key != 0)
          standoff_ = !seen_positions_.insert(key).second;
      }
    }
  }

  // Throws every die due now and answers the questions a person is not asked (the duel's God
  // prompt after a roll that went David's way), as the terminal session does.
  void roll_dice() {
    table_.advance_chance([](const State&, Action) {});
    note_position();
  }

  // Nothing to undo in a replay.
  std::optional<std::size_t> undo_target() const {
    return config_.replay ? std::nullopt : table_.undo_target();
  }

  AiMove describe_analysis(const State& state, std::size_t side, Action chosen,
                           const Analysis& analysis) const {
    (void)side;
    AiMove move;
    move.present = true;
    move.action = sling::action_words(game(), state, chosen);
    move.estimated = !analysis.actions.empty();
    move.exact = analysis.exact;
    move.win = (analysis.value + 1) / 2;
    move.note = analysis.note;
    for (const ActionStat& stat : analysis.actions) {
      if (stat.action == chosen || move.alternatives.size() == 3) continue;
      move.alternatives.push_back({stat.action, sling::action_words(game(), state, stat.action),
                                   (stat.value + 1) / 2, stat.visits});
    }
    return move;
  }

  void write_analysis(JsonWriter& out, bool current) const {
    write_moves_and_hint(out, analysis_, hint_running_, hint_, current, table_.history().size());
  }

  // The game as its rules define it (the agents play it), and the game stepped here: the same
  // with the turn limit of games between agents when nobody plays a side (or the save's limit).
  const G rules_game_;
  const WebGameConfig config_;
  play::GameTable<G> table_;       // the seed, the history, the dice, the agents, undo and saves
  std::array<bool, 2> persons_{};  // the sides a person plays (or played, in a replay)
  std::unordered_set<std::uint64_t> seen_positions_;  // repetition keys met so far
  std::atomic<bool> standoff_ = false;                // the current turn's position has come before
  std::mutex mutex_;
  bool thinking_ = false;
  std::string ai_error_;
  std::array<AiMove, 2> analysis_;
  bool hint_running_ = false;
  std::optional<HintResult> hint_;
  AgentPtr<G> hinter_;
  PositionEstimates<G> estimates_;  // God's stakes and the strip, by the strong agent
  WebAnalysis<G> game_analysis_;    // the Analysis panel's, of a finished game or a replay
};

}  // namespace sling::web
