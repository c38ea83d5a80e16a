#include "solvers/duel/solution_cache.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
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

std::string tolerance_text(double tolerance) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", tolerance);
  return text;
}

// A request without a rise tolerance keeps the file name it had before the tolerance existed.
std::string refined_cache_path(const DuelGame& game, int coarse_pitch_cm, RefinementRequest request,
                               const std::string& directory) {
  std::string key = game.rules_json() + "|from pitch " + std::to_string(coarse_pitch_cm) +
                    "|sweeps " + std::to_string(request.sweeps);
  if (request.rise_tolerance > 0)
    key += "|rise tolerance " + tolerance_text(request.rise_tolerance);
  return disk_cache_file(directory, "duel-refined", key);
}

DuelGame uncapped_game(const DuelGame& game) {
  DuelRules rules = game.rules();
  rules.turn_cap = 0;
  return DuelGame(rules);
}

DuelGame at_pitch(const DuelGame& game, int pitch_cm) {
  DuelRules rules = game.rules();
  rules.pitch_cm = pitch_cm;
  return DuelGame(rules);
}

std::string value_function_key(const DuelGame& game, int coarse_pitch_cm, bool allow_same_lattice,
                               CoarseDuelValue::Scope leaf_scope, RefinementRequest refine) {
  return game.rules_json() + "|" + std::to_string(coarse_pitch_cm) + "|" +
         (allow_same_lattice ? "1" : "0") + "|" + std::to_string(static_cast<int>(leaf_scope)) +
         "|" + std::to_string(refine.sweeps) + "|" + tolerance_text(refine.rise_tolerance) + "|" +
         disk_cache_settings.directory();
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
                                                          RefinementRequest request,
                                                          const std::function<bool()>& cancelled) {
  const DuelGame own = uncapped_game(game);
  const std::string directory = disk_cache_settings.directory();
  const std::string path = refined_cache_path(own, coarse_pitch_cm, request, directory);
  return held_solutions.get(path, [&]() -> std::shared_ptr<const DuelSolution> {
    if (auto loaded =
            load_unfinished_cache_file(own, path, "refined values", "refining", log_line)) {
      return loaded;
    }
    const CoarseDuelValue interpolated(own, cached_duel_solution(at_pitch(own, coarse_pitch_cm)));
    log_line("sling: refining the " + std::to_string(coarse_pitch_cm) + " cm values on the " +
             std::to_string(own.rules().pitch_cm) + " cm lattice (once; cached in " + directory +
             ")...");
    const auto start = std::chrono::steady_clock::now();
    RefinementOptions options;
    options.sweeps = request.sweeps;
    options.rise_tolerance = request.rise_tolerance;
    options.threads = solver_threads();
    options.cancelled = cancelled;
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

bool refinement_is_affordable(const DuelGame& game) {
  return DuelIndex(game).pairs() <= kAffordableRefinementPairs;
}

int default_coarse_pitch(const DuelGame& game) {
  return std::min(std::max(game.rules().pitch_cm + 1, 3), 5);
}

std::shared_ptr<const CoarseDuelValue> shared_coarse_value(const DuelGame& game,
                                                           int coarse_pitch_cm,
                                                           bool allow_same_lattice,
                                                           CoarseDuelValue::Scope leaf_scope,
                                                           RefinementRequest refine,
                                                           const std::function<bool()>& cancelled) {
  if (coarse_pitch_cm == 0) coarse_pitch_cm = default_coarse_pitch(game);
  const std::string key =
      value_function_key(game, coarse_pitch_cm, allow_same_lattice, leaf_scope, refine);
  return held_value_functions.get(key, [&] {
    std::shared_ptr<const DuelSolution> source;
    const DuelGame uncapped = uncapped_game(game);
    if (allow_same_lattice) source = cached_duel_solution_if_present(uncapped);
    if (!source && refine.sweeps > 0) {
      return std::make_shared<const CoarseDuelValue>(
          game, cached_refined_values(game, coarse_pitch_cm, refine, cancelled), leaf_scope,
          /*refined=*/true);
    }
    if (!source) source = cached_duel_solution(at_pitch(uncapped, coarse_pitch_cm));
    return std::make_shared<const CoarseDuelValue>(game, std::move(source), leaf_scope);
  });
}

bool coarse_value_is_ready(const DuelGame& game, int coarse_pitch_cm, bool allow_same_lattice,
                           CoarseDuelValue::Scope leaf_scope, RefinementRequest refine) {
  if (coarse_pitch_cm == 0) coarse_pitch_cm = default_coarse_pitch(game);
  if (held_value_functions.find(
          value_function_key(game, coarse_pitch_cm, allow_same_lattice, leaf_scope, refine)))
    return true;
  const DuelGame uncapped = uncapped_game(game);
  const std::string directory = disk_cache_settings.directory();
  const auto held = [&](const std::string& path) {
    return held_solutions.find(path) != nullptr || std::filesystem::exists(path);
  };
  if (allow_same_lattice && held(duel_solution_cache_path(uncapped, directory))) return true;
  if (refine.sweeps > 0)
    return held(refined_cache_path(uncapped, coarse_pitch_cm, refine, directory));
  return held(duel_solution_cache_path(at_pitch(uncapped, coarse_pitch_cm), directory));
}

}  // namespace sling::duel
