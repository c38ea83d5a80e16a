#include "solvers/duel/coarse_value.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <mutex>
#include <thread>

#include "engine/core/errors.h"
#include "solvers/duel/refinement.h"

namespace sling::duel {
namespace {

// Past this many plies inside one turn (a tied melee thrown again and again) the expectation is
// cut off and the game's own evaluation stands in; the probability of getting there is below
// 6^-10.
constexpr int kMaxTurnPlies = 40;

// The rules a value source must share with the game: all but the lattice pitch and the turn cap.
// A capped game is valued by the uncapped solution (the time limit ignored: it counts only near
// the cap, where the game itself scores the draw; the capped game's exact values are
// solve_capped_duel's).
DuelRules uncapped_without_pitch(DuelRules rules) {
  rules.pitch_cm = 0;
  rules.turn_cap = 0;
  return rules;
}

// A figure's coordinate on the coarse lattice, from its centre (in units) on the fine one.
std::vector<float> coarse_coordinates(int fine_points, int coarse_points,
                                      const std::function<int(int)>& fine_centre,
                                      const std::function<int(int)>& coarse_centre) {
  std::vector<float> out;
  const double origin = coarse_centre(0);
  const double step = coarse_centre(1) - origin;  // negative for Goliath's rows
  for (int i = 0; i < fine_points; ++i) {
    const double u = (fine_centre(i) - origin) / step;
    out.push_back(static_cast<float>(std::clamp(u, 0.0, static_cast<double>(coarse_points - 1))));
  }
  return out;
}

std::uint8_t range_class(const DuelGame& game, const DuelState& s) {
  return game.in_contact(s) ? 1 : static_cast<std::uint8_t>(2 + game.distance_bands(s));
}

}  // namespace

CoarseDuelValue::CoarseDuelValue(const DuelGame& game, std::shared_ptr<const DuelSolution> source,
                                 Scope leaf_scope, bool refined)
    : game_(game),
      fine_index_(game_),
      source_(std::move(source)),
      leaf_scope_(leaf_scope),
      refined_(refined) {
  const DuelGame& coarse = source_->game();
  if (!(uncapped_without_pitch(coarse.rules()) == uncapped_without_pitch(game_.rules()))) {
    throw RulesError("duel value function: the solution was solved for other rules");
  }
  auto axis = [&](Side side, bool columns) {
    const int fine_points = columns ? game_.lattice_width(side) : game_.lattice_height(side);
    const int coarse_points = columns ? coarse.lattice_width(side) : coarse.lattice_height(side);
    const auto fine_centre = [&](int i) {
      return columns ? game_.centre_x(side, i) : game_.centre_y(side, i);
    };
    const auto coarse_centre = [&](int i) {
      return columns ? coarse.centre_x(side, i) : coarse.centre_y(side, i);
    };
    std::vector<Axis> out;
    for (float u : coarse_coordinates(fine_points, coarse_points, fine_centre, coarse_centre)) {
      Axis a;
      a.low = static_cast<std::uint8_t>(std::floor(u));
      a.high = static_cast<std::uint8_t>(std::min<int>(a.low + 1, coarse_points - 1));
      a.high_weight = u - static_cast<float>(a.low);
      out.push_back(a);
    }
    return out;
  };
  david_x_ = axis(kDavid, true);
  david_y_ = axis(kDavid, false);
  goliath_x_ = axis(kGoliath, true);
  goliath_y_ = axis(kGoliath, false);

  const DuelIndex& index = source_->index();
  coarse_range_.assign(index.pairs(), 0);
  DuelState s;
  for_each_placement(coarse, s, [&] {
    coarse_range_[index.pair(s.david_x, s.david_y, s.goliath_x, s.goliath_y)] =
        range_class(coarse, s);
  });
}

double CoarseDuelValue::declare_value(const DuelState& s) const {
  const DuelIndex& index = source_->index();
  const bool god = s.has(kGodAvailable), shield = s.has(kGoliathShield);
  const bool javelin = s.has(kGoliathJavelin), stone = s.has(kDavidHasStone);
  const bool dazed = s.has(kGoliathDazed);
  const int slot = s.actor == kDavid ? DuelIndex::david_slot(stone, dazed)
                                     : DuelIndex::goliath_slot(stone, dazed, s.has(kBeheadPending));
  const double* values =
      source_->values().data() + index.at(DuelIndex::layer(god, shield, javelin), slot, 0);
  const std::uint8_t wanted = range_class(game_, s);
  const Axis axes[4] = {david_x_[s.david_x], david_y_[s.david_y], goliath_x_[s.goliath_x],
                        goliath_y_[s.goliath_y]};
  double same_sum = 0, same_weight = 0, any_sum = 0, any_weight = 0;
  for (int corner = 0; corner < 16; ++corner) {
    int at[4];
    double weight = 1;
    for (int k = 0; k < 4; ++k) {
      const bool high = (corner >> k) & 1;
      at[k] = high ? axes[k].high : axes[k].low;
      weight *= high ? axes[k].high_weight : 1 - axes[k].high_weight;
    }
    if (weight <= 0) continue;
    const std::size_t pair = index.pair(at[0], at[1], at[2], at[3]);
    const std::uint8_t range = coarse_range_[pair];
    if (range == 0) continue;
    any_sum += weight * values[pair];
    any_weight += weight;
    if (range == wanted) {
      same_sum += weight * values[pair];
      same_weight += weight;
    }
  }
  if (same_weight > 0) return same_sum / same_weight;
  if (any_weight > 0) return any_sum / any_weight;
  // Every nearby coarse pair overlaps (the fine figures touch where the coarse lattice has no
  // room): the nearest coarse pair where they do not.
  double best_distance = 1e300, best_value = 0;
  const DuelGame& coarse = source_->game();
  const float targets[4] = {
      static_cast<float>(axes[0].low) + axes[0].high_weight,
      static_cast<float>(axes[1].low) + axes[1].high_weight,
      static_cast<float>(axes[2].low) + axes[2].high_weight,
      static_cast<float>(axes[3].low) + axes[3].high_weight,
  };
  for (int gy = 0; gy < coarse.lattice_height(kGoliath); ++gy) {
    for (int gx = 0; gx < coarse.lattice_width(kGoliath); ++gx) {
      for (int dy = 0; dy < coarse.lattice_height(kDavid); ++dy) {
        for (int dx = 0; dx < coarse.lattice_width(kDavid); ++dx) {
          const std::size_t pair = index.pair(dx, dy, gx, gy);
          if (coarse_range_[pair] == 0) continue;
          const double d =
              (dx - targets[0]) * (dx - targets[0]) + (dy - targets[1]) * (dy - targets[1]) +
              (gx - targets[2]) * (gx - targets[2]) + (gy - targets[3]) * (gy - targets[3]);
          if (d < best_distance) {
            best_distance = d;
            best_value = values[pair];
          }
        }
      }
    }
  }
  return best_value;
}

double CoarseDuelValue::turn_value(const DuelState& s, bool root, Scope scope, int depth,
                                   TurnMemo& memo) const {
  if (game_.is_terminal(s)) return s.winner == kDavid ? 1.0 : 0.0;
  if (!root && fine_index_.index_of(s)) return declare_value(s);
  // A tied initiative roll is thrown again, so an expectation through it would recurse without
  // end: the game's start is the solution's own start value (physically the same positions).
  if (!root && s.phase == Phase::kRoll && s.roll == Roll::kInitiative && s.rerolling == 0) {
    return s.has(kGodAvailable) ? source_->summary().start : source_->summary().start_without_god;
  }
  if (depth >= kMaxTurnPlies) return (game_.evaluate(s) + 1) / 2;
  const Player player = game_.current_player(s);
  if (player == kChancePlayer) {
    ChanceList<DuelGame> outcomes;
    game_.chance_outcomes(s, outcomes);
    double expectation = 0;
    for (const ChanceOutcome& o : outcomes) {
      DuelState child = s;
      game_.apply_unchecked(child, o.outcome);
      expectation += o.probability * turn_value(child, false, scope, depth + 1, memo);
    }
    return expectation;
  }
  const bool remembered = s.phase == Phase::kDestination;
  if (remembered) {
    for (int i = 0; i < memo.used; ++i) {
      if (memo.states[i] == s) return memo.values[i];
    }
  }
  ActionList<DuelGame> actions;
  if (scope == Scope::kAllActions) {
    game_.legal_actions(s, actions);
  } else {
    game_.candidate_actions(s, actions);
  }
  const bool david = player == kDavid;
  double best = david ? -1.0 : 2.0;
  for (Action a : actions) {
    DuelState child = s;
    game_.apply_unchecked(child, a);
    const double v = turn_value(child, false, scope, depth + 1, memo);
    best = david ? std::max(best, v) : std::min(best, v);
  }
  if (remembered && memo.used < TurnMemo::kSize) {
    memo.states[memo.used] = s;
    memo.values[memo.used] = best;
    ++memo.used;
  }
  return best;
}

double CoarseDuelValue::win_probability(const DuelState& s, Scope scope) const {
  TurnMemo memo;
  return turn_value(s, false, scope, 0, memo);
}

std::vector<std::pair<Action, double>> CoarseDuelValue::action_values(const DuelState& s) const {
  std::vector<std::pair<Action, double>> out;
  const Player player = game_.current_player(s);
  if (player != kDavid && player != kGoliath) return out;
  // On the solution's own lattice its own action values, which the solver plays: computed here
  // they lost the ordering that makes the solver act on a plateau, and `lookahead` David stalled
  // (13 of 20 games at the 3,000-ply limit against the exact Goliath at 3 cm).
  if (exact()) return source_->action_values(s);
  ActionList<DuelGame> actions;
  game_.legal_actions(s, actions);
  TurnMemo memo;
  for (Action a : actions) {
    DuelState child = s;
    game_.apply_unchecked(child, a);
    out.emplace_back(a, turn_value(child, false, Scope::kAllActions, 1, memo));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The cache.

namespace {

std::mutex& cache_mutex() {
  static std::mutex mutex;
  return mutex;
}
std::string& cache_directory_override() {
  static std::string directory;
  return directory;
}
std::function<void(const std::string&)>& cache_log() {
  static std::function<void(const std::string&)> log = [](const std::string& line) {
    std::cerr << line << '\n';
  };
  return log;
}
void log_line(const std::string& line) {
  if (cache_log()) cache_log()(line);
}

std::uint64_t fnv1a(const std::string& text) {
  std::uint64_t h = 14695981039346656037ULL;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return h;
}

// Loads the cached file at `path`; null (after a notice) when it is unusable.
std::shared_ptr<const DuelSolution> load_cached(const DuelGame& game, const std::string& path,
                                                bool notify) {
  std::error_code error;
  if (!std::filesystem::exists(path, error)) return nullptr;
  try {
    return std::make_shared<const DuelSolution>(DuelSolution::load(path, &game));
  } catch (const std::exception& e) {
    if (notify)
      log_line("sling: cached duel solution " + path + " is unusable (" + e.what() +
               "); solving again");
    return nullptr;
  }
}

std::map<std::string, std::shared_ptr<const DuelSolution>>& loaded_solutions() {
  static std::map<std::string, std::shared_ptr<const DuelSolution>> loaded;
  return loaded;
}

}  // namespace

std::string duel_cache_directory() {
  {
    std::lock_guard<std::mutex> lock(cache_mutex());
    if (!cache_directory_override().empty()) return cache_directory_override();
  }
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg != '\0') {
    return std::string(xdg) + "/sling";
  }
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
    return std::string(home) + "/.cache/sling";
  }
  return ".sling-cache";
}

void set_duel_cache_directory(const std::string& directory) {
  std::lock_guard<std::mutex> lock(cache_mutex());
  cache_directory_override() = directory;
}

void set_duel_cache_log(std::function<void(const std::string&)> log) {
  std::lock_guard<std::mutex> lock(cache_mutex());
  cache_log() = std::move(log);
}

void duel_cache_log_line(const std::string& line) {
  std::lock_guard<std::mutex> lock(cache_mutex());
  log_line(line);
}

void save_solved_in_duel_cache(const std::function<void(const std::string&)>& save,
                               const std::string& directory, const std::string& path,
                               double seconds, const std::string& what,
                               const std::function<void(const std::string&)>& log) {
  try {
    std::filesystem::create_directories(directory);
    save(path);
    char line[64];
    std::snprintf(line, sizeof(line), "%.1f", seconds);
    log("sling: solved in " + std::string(line) + " s; saved " + path);
  } catch (const std::exception& e) {
    log("sling: could not save the " + what + " to the cache (" + std::string(e.what()) + ")");
  }
}

std::shared_ptr<const DuelSolution> load_unfinished_cache_file(
    const DuelGame& game, const std::string& path, const std::string& what,
    const std::string& redoing, const std::function<void(const std::string&)>& log) {
  std::error_code error;
  if (!std::filesystem::exists(path, error)) return nullptr;
  try {
    auto table = std::make_shared<const DuelSolution>(
        DuelSolution::load(path, &game, DuelSolution::Accept::kSolutionOrCheckpoint));
    if (!table->complete()) return table;
    log("sling: cached " + what + " " + path + " are unusable (a solution, not " + what + "); " +
        redoing + " again");
  } catch (const std::exception& e) {
    log("sling: cached " + what + " " + path + " are unusable (" + e.what() + "); " + redoing +
        " again");
  }
  return nullptr;
}

std::string duel_cache_file(const std::string& directory, const std::string& prefix,
                            const std::string& key) {
  char hash[24];
  std::snprintf(hash, sizeof(hash), "%016llx", static_cast<unsigned long long>(fnv1a(key)));
  return directory + "/" + prefix + "-" + hash + ".sol";
}

std::string duel_solution_cache_path(const DuelGame& game, const std::string& directory) {
  return duel_cache_file(directory, "duel", game.rules_json());
}

std::shared_ptr<const DuelSolution> cached_duel_solution_if_present(const DuelGame& game) {
  const std::string path = duel_solution_cache_path(game, duel_cache_directory());
  std::lock_guard<std::mutex> lock(cache_mutex());
  auto& slot = loaded_solutions()[path];
  if (!slot) slot = load_cached(game, path, false);
  return slot;
}

std::shared_ptr<const DuelSolution> cached_duel_solution(const DuelGame& game) {
  const std::string directory = duel_cache_directory();
  const std::string path = duel_solution_cache_path(game, directory);
  std::lock_guard<std::mutex> lock(cache_mutex());
  auto& slot = loaded_solutions()[path];
  if (slot) return slot;
  slot = load_cached(game, path, true);
  if (slot) return slot;
  check_solvable(game);
  log_line("sling: solving the duel at pitch " + std::to_string(game.rules().pitch_cm) +
           " cm for the value function (once; cached in " + directory + ")...");
  const auto start = std::chrono::steady_clock::now();
  SolverOptions options;
  options.threads = static_cast<int>(std::max(2u, std::thread::hardware_concurrency()));
  options.tolerance = kRouteTolerance;
  options.policy_improvements = kRouteImprovements;
  auto solution = std::make_shared<const DuelSolution>(solve_duel(game, options));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  save_solved_in_duel_cache([&](const std::string& file) { solution->save(file); }, directory, path,
                            seconds, "duel solution", log_line);
  slot = solution;
  return slot;
}

namespace {

std::string refined_cache_path(const DuelGame& game, int coarse_pitch_cm, int sweeps,
                               const std::string& directory) {
  return duel_cache_file(directory, "duel-refined",
                         game.rules_json() + "|from pitch " + std::to_string(coarse_pitch_cm) +
                             "|sweeps " + std::to_string(sweeps));
}

}  // namespace

std::shared_ptr<const DuelSolution> cached_refined_values(const DuelGame& game, int coarse_pitch_cm,
                                                          int sweeps) {
  DuelRules uncapped = game.rules();
  uncapped.turn_cap = 0;
  const DuelGame own(uncapped);
  const std::string directory = duel_cache_directory();
  const std::string path = refined_cache_path(own, coarse_pitch_cm, sweeps, directory);
  {
    std::lock_guard<std::mutex> lock(cache_mutex());
    auto& slot = loaded_solutions()[path];
    if (!slot) slot = load_unfinished_cache_file(own, path, "refined values", "refining", log_line);
    if (slot) return slot;
  }
  DuelRules coarse = uncapped;
  coarse.pitch_cm = coarse_pitch_cm;
  const CoarseDuelValue interpolated(own, cached_duel_solution(DuelGame(coarse)));
  duel_cache_log_line("sling: refining the " + std::to_string(coarse_pitch_cm) +
                      " cm values on the " + std::to_string(uncapped.pitch_cm) +
                      " cm lattice (once; cached in " + directory + ")...");
  const auto start = std::chrono::steady_clock::now();
  RefinementOptions options;
  options.sweeps = sweeps;
  options.threads = static_cast<int>(std::max(2u, std::thread::hardware_concurrency()));
  // A layer's line once the refinement has run for a while (the 1 cm lattice takes minutes).
  options.log = [&start](const std::string& line) {
    if (std::chrono::steady_clock::now() - start > std::chrono::seconds(10))
      duel_cache_log_line("sling: " + line);
  };
  auto refined =
      std::make_shared<const DuelSolution>(refine_interpolated_values(interpolated, options));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::lock_guard<std::mutex> lock(cache_mutex());
  save_solved_in_duel_cache([&](const std::string& file) { refined->save(file); }, directory, path,
                            seconds, "refined values", log_line);
  loaded_solutions()[path] = refined;
  return refined;
}

bool refinement_is_cheap(const DuelGame& game) {
  return DuelIndex(game).pairs() <= kCheapRefinementPairs;
}

int default_coarse_pitch(const DuelGame& game) {
  return std::min(std::max(game.rules().pitch_cm + 1, 3), 5);
}

std::shared_ptr<const CoarseDuelValue> shared_coarse_value(const DuelGame& game,
                                                           int coarse_pitch_cm,
                                                           bool allow_same_lattice,
                                                           CoarseDuelValue::Scope leaf_scope,
                                                           int refine_sweeps) {
  if (coarse_pitch_cm == 0) coarse_pitch_cm = default_coarse_pitch(game);
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const CoarseDuelValue>> shared;
  const std::string key = game.rules_json() + "|" + std::to_string(coarse_pitch_cm) + "|" +
                          (allow_same_lattice ? "1" : "0") + "|" +
                          std::to_string(static_cast<int>(leaf_scope)) + "|" +
                          std::to_string(refine_sweeps) + "|" + duel_cache_directory();
  std::lock_guard<std::mutex> lock(mutex);
  auto& slot = shared[key];
  if (slot) return slot;
  std::shared_ptr<const DuelSolution> source;
  DuelRules uncapped = game.rules();
  uncapped.turn_cap = 0;
  if (allow_same_lattice) source = cached_duel_solution_if_present(DuelGame(uncapped));
  if (!source && refine_sweeps > 0) {
    slot = std::make_shared<const CoarseDuelValue>(
        game, cached_refined_values(game, coarse_pitch_cm, refine_sweeps), leaf_scope,
        /*refined=*/true);
    return slot;
  }
  if (!source) {
    DuelRules rules = uncapped;
    rules.pitch_cm = coarse_pitch_cm;
    source = cached_duel_solution(DuelGame(rules));
  }
  slot = std::make_shared<const CoarseDuelValue>(game, std::move(source), leaf_scope);
  return slot;
}

}  // namespace sling::duel
