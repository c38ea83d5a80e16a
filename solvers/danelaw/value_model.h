#pragma once
// Danelaw's learned evaluation: a logistic model of P(the Danes win) on features of a position
// (towns held against towns needed, armies on the map and in the pools, Boost.Graph distance fields
// from each side's armies to the towns, turns left).  `sling train danelaw` fits it from self-play
// (experiments/training/); the trained default is embedded in the binary
// (solvers/danelaw/data/danelaw_value.json) with the command and seed that produced it.  The rules
// (engine/danelaw/) know nothing of it: search leaves get it through GameValue<DanelawGame>
// (agents/danelaw_value.h), the planner (agents/danelaw_planner.h) directly.

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace sling::danelaw {

class DanelawGame;
struct State;

// The features, in model order.  A model file lists their names and is refused if they differ, so
// a model fitted on another feature set is never applied by mistake.
namespace feature {
enum Index : int {
  kBias,
  kTownsHeld,        // Danish towns / towns needed
  kTownsHeldLate,    // the same times the fraction of the game played
  kTurnsLeft,        // fraction of the game still to play
  kDanesOnMap,       // Danish armies on the map / the base pool
  kDanesInPool,      // Danish armies not yet in play / the base pool
  kEnglishField,     // English field armies on the map / the base pool
  kEnglishPool,      // English armies not yet in play / the base pool
  kMilitia,          // English militia left / the base pool
  kDanesReachEmpty,  // English-held towns with no army that a Dane reaches within 7 / needed
  kDanesReachTwo,    // English-held towns a Dane reaches within 14 / needed
  kDanesCloser,      // English-held towns nearer to a Dane than to an English field army / needed
  kEnglishReach,     // empty Danish towns an English field army reaches within 7 / needed
  kEnglishCloser,    // Danish towns nearer to an English field army than to a Dane / needed
  kDefendedTowns,    // Danish towns with a Dane in them / needed
  kReachEmptyLeft,   // kDanesReachEmpty times the fraction left
  kCloserLeft,       // kDanesCloser times the fraction left
  kDanesAtSea,       // Danish armies at sea / the base pool
  kCount
};
}  // namespace feature
inline constexpr int kFeatureCount = feature::kCount;

using Features = std::array<double, kFeatureCount>;

const std::array<std::string_view, kFeatureCount>& feature_names();

// The features of `s` (not a terminal state).  Two distance fields over the map; no heap use.
Features extract_features(const DanelawGame& game, const State& s);

// Predicted against observed win rate in one band of predictions.
struct CalibrationBin {
  double low = 0, high = 0;  // prediction band
  double predicted = 0;      // mean prediction in the band
  double observed = 0;       // fraction of Danish wins in the band
  int count = 0;
};

// P(the Danes win) = sigmoid(weights . f + output . tanh(hidden f) + town terms): a logistic
// model of the features, plus, in a network, a layer of tanh units over the same features (each
// row of `hidden` one unit's weights, `output` their weights in the sum), plus, where fitted, the
// terms of single towns.  The file's format version says which: 1 the linear model, 2 with
// hidden units, 3 the linear model with town terms.
inline constexpr int kMaxHiddenUnits = 256;

// Which towns the Danes hold and which of them a Danish army stands in, one bit a town in the
// map's order (State::danish_towns's order; a map has at most 64 towns).
struct TownMasks {
  std::uint64_t held = 0;
  std::uint64_t garrisoned = 0;
};
TownMasks town_masks(const DanelawGame& game, const State& s);

// Terms of single towns, fitted on one map: a weight for each town the Danes hold and one for
// each of those a Danish army stands in.  The features count towns as if all were alike; these
// let a model learn which towns matter (a town the English retake easily, a cluster that holds).
// A town's index means nothing on another map, so they apply only on the map they were fitted on
// (its content hash); elsewhere the model is its features alone.
struct TownTerms {
  std::string map_hash;            // empty: no town terms
  std::vector<std::string> names;  // the map's towns in its order, for people reading the file
  std::vector<double> held;        // one per town
  std::vector<double> garrisoned;  // one per town
  bool empty() const { return held.empty(); }
  bool applies(const DanelawGame& game) const;
  double sum(TownMasks m) const;
};

struct ValueModel {
  std::vector<double> weights;   // one per feature
  std::vector<Features> hidden;  // one row of feature weights per hidden unit (none: linear)
  std::vector<double> output;    // one per hidden unit
  TownTerms towns;               // none unless fitted with them (a format version 3 file)
  // Provenance: the command and seed that produced it, and how.
  std::string command;
  std::uint64_t seed = 0;
  int games = 0;
  int iterations = 0;
  int states = 0;
  double log_loss = 0;  // on held-out states
  std::vector<CalibrationBin> calibration;

  // P(the Danes win) from the features and, where the model has town terms, the towns.
  double probability(const Features& f, TownMasks towns_of_position = {}) const;
  double probability(const DanelawGame& game, const State& s) const;

  std::string to_json() const;
  // Throws FileFormatError with a one-line message naming `origin` (a path or "embedded").
  static ValueModel from_json(std::string_view text, const std::string& origin);
  static ValueModel load(const std::string& path);
  // The model file at `path` through the process's one cache of loaded tables
  // (engine/core/keyed_cache.h, keyed by the file's content): every agent and leaf that names the
  // same file shares one copy, and a rewritten file is read again.
  static std::shared_ptr<const ValueModel> shared(const std::string& path);
  // The default model compiled into the binary.
  static const ValueModel& embedded();
};

}  // namespace sling::danelaw
