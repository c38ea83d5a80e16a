#include "solvers/duel/capped_cache.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>

#include "engine/core/disk_cache.h"
#include "engine/core/keyed_cache.h"
#include "solvers/duel/capped_solve.h"
#include "solvers/duel/index.h"
#include "solvers/duel/solution_cache.h"

namespace sling::duel {
namespace {

// Canonical states times turns that two threads solve in about a minute (see the header).
constexpr double kCheapStateTurns = 1.5e8;

// Few keyframes: a cached solve is small (cheap by construction), and play recomputes the turns
// between two keyframes once, going down through them.
constexpr int kCachedKeyframeEvery = 10;

// Capped solutions in memory, by cache file (each holds a few keyframes of values).
KeyedCache<CappedDuelSolution> held_capped_solutions(4);

void log_line(const std::string& line) {
  disk_cache_settings.log(line);
}

// Loads the cached capped solution at `path`; null when there is none, and null after a notice
// when it is unusable or was solved for another objective.
std::shared_ptr<const CappedDuelSolution> load_cached(const DuelGame& game,
                                                      CappedObjective objective,
                                                      const std::string& path) {
  return load_cache_file(
      path,
      [&](const std::string& file) -> std::shared_ptr<const CappedDuelSolution> {
        auto solution =
            std::make_shared<const CappedDuelSolution>(CappedDuelSolution::load(file, &game));
        if (solution->objective() == objective) return solution;
        log_line("sling: cached capped solution " + path + " has another objective; solving again");
        return nullptr;
      },
      [&](const std::string& why) {
        log_line("sling: cached capped solution " + path + " is unusable (" + why +
                 "); solving again");
      });
}

}  // namespace

bool capped_solve_is_cheap(const DuelGame& game) {
  if (game.rules().turn_cap <= 0) return false;
  const DuelIndex index(game);
  // Half the pairs are mirror images; six layers with God, three without.
  const double layers = game.rules().god_enabled ? 6 : 3;
  const double canonical = 0.5 * static_cast<double>(index.pairs()) * DuelIndex::kSlots * layers;
  return canonical * game.rules().turn_cap <= kCheapStateTurns;
}

std::string capped_solution_cache_path(const DuelGame& game, CappedObjective objective,
                                       const std::string& directory) {
  std::string path = duel_solution_cache_path(game, directory);
  path.resize(path.size() - 4);  // ".sol"
  return path + "-" + objective_name(objective) + ".sol";
}

std::shared_ptr<const CappedDuelSolution> cached_capped_duel_solution(const DuelGame& game,
                                                                      CappedObjective objective) {
  check_capped_solvable(game);
  const std::string directory = disk_cache_settings.directory();
  const std::string path = capped_solution_cache_path(game, objective, directory);
  return held_capped_solutions.get(path, [&]() -> std::shared_ptr<const CappedDuelSolution> {
    if (auto loaded = load_cached(game, objective, path)) return loaded;
    log_line("sling: solving the duel capped at " + std::to_string(game.rules().turn_cap) +
             " turns (pitch " + std::to_string(game.rules().pitch_cm) + " cm, objective " +
             objective_name(objective) + "; once, cached in " + directory + ")...");
    const auto start = std::chrono::steady_clock::now();
    CappedOptions options;
    options.threads = static_cast<int>(std::max(2u, std::thread::hardware_concurrency()));
    options.keyframe_every = kCachedKeyframeEvery;
    options.outcomes = false;  // play needs the values only: twice as fast
    auto solution =
        std::make_shared<const CappedDuelSolution>(solve_capped_duel(game, objective, options));
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    save_to_disk_cache([&](const std::string& file) { solution->save(file); }, directory, path,
                       seconds, "capped solution", log_line);
    return solution;
  });
}

}  // namespace sling::duel
