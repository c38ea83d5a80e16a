#pragma once
// The duel's value function for `leaf=value`: the exact solution on a coarser lattice,
// interpolated (solvers/duel/coarse_value.h), solved on first use and cached on disk.

#include <memory>
#include <string>

#include "agents/game_value.h"
#include "engine/duel/duel.h"
#include "solvers/duel/coarse_value.h"

namespace sling {

template <>
struct GameValue<duel::DuelGame> {
  static constexpr bool kAvailable = true;
  using Function = duel::CoarseDuelValue;
  struct Options {
    int pitch_cm = 0;          // of the coarse solution; 0 = one centimetre coarser than the game
    bool same_lattice = true;  // use the game's own cached solution when there is one
    int refine_sweeps = 0;     // refine the interpolated values first (0 = off)
  };
  static Options read(OptionReader& r) {
    Options o;
    o.pitch_cm = static_cast<int>(
        r.integer("value_pitch", 0, 0, 5,
                  "leaf=value: lattice pitch (cm) of the exact solution interpolated as the "
                  "value (0 = one cm coarser than the game's)"));
    o.same_lattice = r.integer("same_lattice", 1, 0, 1,
                               "leaf=value: use the game's own solution instead when the cache "
                               "holds it (1) or never (0)") == 1;
    o.refine_sweeps = static_cast<int>(
        r.integer("refine", 0, 0, 500,
                  "leaf=value: refine the interpolated values on the game's lattice: settle them "
                  "to a sub-solution, then this many sweeps of the exact turn (0 = off)"));
    return o;
  }
  static std::string spec(const Options& o) {
    return ",value_pitch=" + std::to_string(o.pitch_cm) +
           ",same_lattice=" + (o.same_lattice ? "1" : "0") +
           ",refine=" + std::to_string(o.refine_sweeps);
  }
  static std::shared_ptr<const Function> make(const duel::DuelGame& game, const Options& o) {
    return duel::shared_coarse_value(game, o.pitch_cm, o.same_lattice,
                                     duel::CoarseDuelValue::Scope::kCandidates, o.refine_sweeps);
  }
};

}  // namespace sling
