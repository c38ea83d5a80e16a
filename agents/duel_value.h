#pragma once
// The duel's value function for `leaf=value`: the exact solution on a coarser lattice,
// interpolated (solvers/duel/coarse_value.h), solved on first use and cached on disk.

#include <cstdio>
#include <memory>
#include <string>

#include "agents/game_value.h"
#include "engine/duel/duel.h"
#include "solvers/duel/solution_cache.h"

namespace sling {

// The refinement options shared by `lookahead` and `leaf=value` (solvers/duel/refinement.h):
// `refine=K` settles the interpolated values to a sub-solution on the game's lattice and raises
// them by at most K sweeps of the exact turn, fewer when `refine_tolerance` > 0 and no value rises
// by more than it in a sweep.
struct DuelRefineOptions {
  int sweeps = 0;
  double rise_tolerance = 0;
  static DuelRefineOptions read(OptionReader& r, const std::string& prefix) {
    DuelRefineOptions o;
    o.sweeps = static_cast<int>(r.integer(
        "refine", 0, 0, 500,
        prefix + "refine the interpolated values on the game's lattice: settle them to a "
                 "sub-solution, then at most this many sweeps of the exact turn (0 = off; "
                 "computed once and cached: seconds at 2 cm, minutes at 1 cm)"));
    o.rise_tolerance = r.real("refine_tolerance", 0, 0, 0.01,
                              prefix +
                                  "refine: stop raising a layer once no value rises by more "
                                  "than this in a sweep (0 = every sweep runs)");
    return o;
  }
  duel::RefinementRequest request() const { return {sweeps, rise_tolerance}; }
  std::string spec() const {
    std::string text = ",refine=" + std::to_string(sweeps);
    if (sweeps > 0) {
      char tolerance[32];
      std::snprintf(tolerance, sizeof tolerance, "%g", rise_tolerance);
      text += std::string(",refine_tolerance=") + tolerance;
    }
    return text;
  }
};

// Where the duel's values come from, for `lookahead` and `leaf=value` alike: the exact solution of
// a coarser lattice, interpolated, or the game's own when cached; refined or not.
struct DuelValueSource {
  int pitch_cm = 0;          // of the coarse solution; 0 = one centimetre coarser than the game
  bool same_lattice = true;  // use the game's own cached solution when there is one
  DuelRefineOptions refine;  // refine the interpolated values first
  static DuelValueSource read(OptionReader& r, const std::string& prefix) {
    DuelValueSource o;
    o.pitch_cm = static_cast<int>(
        r.integer("value_pitch", 0, 0, 5,
                  prefix + "lattice pitch (cm) of the exact solution interpolated as the value "
                           "(0 = one cm coarser than the game's)"));
    o.same_lattice = r.integer("same_lattice", 1, 0, 1,
                               prefix +
                                   "use the game's own solution instead when the cache "
                                   "holds it (1) or never (0)") == 1;
    o.refine = DuelRefineOptions::read(r, prefix);
    return o;
  }
};

template <>
struct GameValue<duel::DuelGame> {
  static constexpr bool kAvailable = true;
  using Function = duel::CoarseDuelValue;
  using Options = DuelValueSource;
  static Options read(OptionReader& r) { return DuelValueSource::read(r, "leaf=value: "); }
  static std::string spec(const Options& o) {
    return ",value_pitch=" + std::to_string(o.pitch_cm) +
           ",same_lattice=" + (o.same_lattice ? "1" : "0") + o.refine.spec();
  }
  static std::shared_ptr<const Function> make(const duel::DuelGame& game, const Options& o) {
    return duel::shared_coarse_value(game, o.pitch_cm, o.same_lattice,
                                     duel::CoarseDuelValue::Scope::kCandidates, o.refine.request());
  }
};

}  // namespace sling
