#include "solvers/duel/solution_cache.h"

#include <algorithm>
#include <chrono>
#include <thread>
#include <utility>

#include "engine/core/keyed_cache.h"
#include "solvers/duel/refinement.h"

namespace sling::duel {
namespace {

// Solutions and refined values in memory, by cache file.  A solution of the default 30 cm board
// at 3 cm is a few MB, at 1 cm a few hundred: eight of them, 4 GiB at most, and a caller keeps
// its own after eviction.
KeyedCache<DuelSolution> held_solutions(8, std::size_t{4} << 30, [](const DuelSolution& s) {
  return s.values().size() * sizeof(double);
});

// Value functions, by everything that determines them (their tables are the solutions above).
KeyedCache<CoarseDuelValue> held_value_functions(16);

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

int solver_threads() {
  return static_cast<int>(std::max(2u, std::thread::hardware_concurrency()));
}

// Loads the cached solution at `path`; null when there is none, and null (after a notice when
// `notify`) when it is unusable.
std::shared_ptr<const DuelSolution> load_cached(const DuelGame& game, const std::string& path,
                                                bool notify) {
  return load_cache_file(
      path,
      [&](const std::string& file) {
        return std::make_shared<const DuelSolution>(DuelSolution::load(file, &game));
      },
      [&](const std::string& why) {
        if (notify) {
          disk_cache_settings.log("sling: cached duel solution " + path + " is unusable (" + why +
                                  "); solving again");
        }
      });
}

std::string refined_cache_path(const DuelGame& game, int coarse_pitch_cm, int sweeps,
                               const std::string& directory) {
  return disk_cache_file(directory, "duel-refined",
                         game.rules_json() + "|from pitch " + std::to_string(coarse_pitch_cm) +
                             "|sweeps " + std::to_string(sweeps));
}

void log_line(const std::string& line) {
  disk_cache_settings.log(line);
}

}  // namespace

std::string duel_solution_cache_path(const DuelGame& game, const std::string& directory) {
  return disk_cache_file(directory, "duel", game.rules_json());
}

std::shared_ptr<const DuelSolution> load_unfinished_cache_file(const DuelGame& game,
                                                               const std::string& path,
                                                               const std::string& what,
                                                               const std::string& redoing,
                                                               const CacheLog& log) {
  const auto unusable = [&](const std::string& why) {
    log("sling: cached " + what + " " + path + " are unusable (" + why + "); " + redoing +
        " again");
  };
  auto table = load_cache_file(
      path,
      [&](const std::string& file) {
        return std::make_shared<const DuelSolution>(
            DuelSolution::load(file, &game, DuelSolution::Accept::kSolutionOrCheckpoint));
      },
      unusable);
  if (table && table->complete()) {
    unusable("a solution, not " + what);
    return nullptr;
  }
  return table;
}

std::shared_ptr<const DuelSolution> cached_duel_solution_if_present(const DuelGame& game) {
  const std::string path = duel_solution_cache_path(game, disk_cache_settings.directory());
  return held_solutions.get(path, [&] { return load_cached(game, path, false); });
}

std::shared_ptr<const DuelSolution> cached_duel_solution(const DuelGame& game) {
  const std::string directory = disk_cache_settings.directory();
  const std::string path = duel_solution_cache_path(game, directory);
  return held_solutions.get(path, [&]() -> std::shared_ptr<const DuelSolution> {
    if (auto loaded = load_cached(game, path, true)) return loaded;
    check_solvable(game);
    log_line("sling: solving the duel at pitch " + std::to_string(game.rules().pitch_cm) +
             " cm for the value function (once; cached in " + directory + ")...");
    const auto start = std::chrono::steady_clock::now();
    SolverOptions options;
    options.threads = solver_threads();
    options.tolerance = kRouteTolerance;
    options.policy_improvements = kRouteImprovements;
    auto solution = std::make_shared<const DuelSolution>(solve_duel(game, options));
    save_to_disk_cache([&](const std::string& file) { solution->save(file); }, directory, path,
                       seconds_since(start), "duel solution", log_line);
    return solution;
  });
}

std::shared_ptr<const DuelSolution> cached_refined_values(const DuelGame& game, int coarse_pitch_cm,
                                                          int sweeps) {
  DuelRules uncapped = game.rules();
  uncapped.turn_cap = 0;
  const DuelGame own(uncapped);
  const std::string directory = disk_cache_settings.directory();
  const std::string path = refined_cache_path(own, coarse_pitch_cm, sweeps, directory);
  return held_solutions.get(path, [&]() -> std::shared_ptr<const DuelSolution> {
    if (auto loaded =
            load_unfinished_cache_file(own, path, "refined values", "refining", log_line)) {
      return loaded;
    }
    DuelRules coarse = uncapped;
    coarse.pitch_cm = coarse_pitch_cm;
    const CoarseDuelValue interpolated(own, cached_duel_solution(DuelGame(coarse)));
    log_line("sling: refining the " + std::to_string(coarse_pitch_cm) + " cm values on the " +
             std::to_string(uncapped.pitch_cm) + " cm lattice (once; cached in " + directory +
             ")...");
    const auto start = std::chrono::steady_clock::now();
    RefinementOptions options;
    options.sweeps = sweeps;
    options.threads = solver_threads();
    // A layer's line once the refinement has run for a while (the 1 cm lattice takes minutes).
    options.log = [&start](const std::string& line) {
      if (std::chrono::steady_clock::now() - start > std::chrono::seconds(10))
        log_line("sling: " + line);
    };
    auto refined =
        std::make_shared<const DuelSolution>(refine_interpolated_values(interpolated, options));
    save_to_disk_cache([&](const std::string& file) { refined->save(file); }, directory, path,
                       seconds_since(start), "refined values", log_line);
    return refined;
  });
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
  const std::string key = game.rules_json() + "|" + std::to_string(coarse_pitch_cm) + "|" +
                          (allow_same_lattice ? "1" : "0") + "|" +
                          std::to_string(static_cast<int>(leaf_scope)) + "|" +
                          std::to_string(refine_sweeps) + "|" + disk_cache_settings.directory();
  return held_value_functions.get(key, [&] {
    std::shared_ptr<const DuelSolution> source;
    DuelRules uncapped = game.rules();
    uncapped.turn_cap = 0;
    if (allow_same_lattice) source = cached_duel_solution_if_present(DuelGame(uncapped));
    if (!source && refine_sweeps > 0) {
      return std::make_shared<const CoarseDuelValue>(
          game, cached_refined_values(game, coarse_pitch_cm, refine_sweeps), leaf_scope,
          /*refined=*/true);
    }
    if (!source) {
      DuelRules rules = uncapped;
      rules.pitch_cm = coarse_pitch_cm;
      source = cached_duel_solution(DuelGame(rules));
    }
    return std::make_shared<const CoarseDuelValue>(game, std::move(source), leaf_scope);
  });
}

}  // namespace sling::duel
