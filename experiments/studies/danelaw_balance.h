#pragma once
// Danelaw's balance study (`sling study balance danelaw`): which rule variant makes a fair game,
// and how the answer depends on who plays.  Every pairing of agents (Danes, English: by default
// strong, normal and heuristic on both sides, and strong against normal either way) plays every
// variant on the same game seeds, so variants and pairings are compared on common dice.  The
// report answers for strong players first, gives each pairing's fairest variant with its 95%
// Wilson interval, tests the recommended variant against its neighbours on paired games, explains
// from the records where the Danes' holdings peak and what they lose, and measures the value
// model's calibration on every pairing's games (docs/results/danelaw-balance/).

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "engine/danelaw/danelaw.h"
#include "experiments/match.h"
#include "solvers/danelaw/value_model.h"

namespace sling::danelaw {

struct BalanceVariant {
  std::string name;  // e.g. "+10 Danes"
  DanelawRules rules;
  // The towns needed when the variant changes nothing else: variants on this axis are ordered,
  // and a variant's neighbours are the ones a town either side.  0 off the axis.
  int towns_axis = 0;
};

// Towns needed from 16 to 10 (the default's 15 among them), the seed's +10 Danes as Sling reads
// it (the ten extra armies in reserve) and as the other reading has it (all of them at sea).
std::vector<BalanceVariant> default_balance_variants(const DanelawRules& base);

// Who plays: each side's agent as given (a preset or a spec) and fully spelled out.
struct BalancePairing {
  std::array<std::string, 2> names;  // Danes, English, as given
  std::array<std::string, 2> specs;  // resolved: every option spelled out, no preset names
};

// strong/strong, normal/normal, heuristic/heuristic, strong/normal, normal/strong (as names).
std::vector<std::array<std::string, 2>> default_balance_pairings();

struct BalanceOptions {
  int games = 100;  // per variant and pairing
  std::uint64_t seed = 1;
  int threads = 0;
  // Called after each finished game with (games done, games in all); one call at a time.
  std::function<void(int, int)> progress;
};

struct VariantOutcome {
  BalanceVariant variant;
  int games = 0;
  int danish_wins = 0;
  Interval interval;
  double mean_final_towns = 0;          // Danish towns at the end
  double mean_peak_towns = 0;           // the most the Danes ever held in the game
  double mean_danes_lost = 0;           // Danish armies destroyed
  double mean_english_lost = 0;         // English armies (field and militia) destroyed
  double mean_peak_turn = 0;            // the turn of the Danes' peak
  int wiped_out = 0;                    // games where the Danes had no army left
  std::vector<std::uint8_t> danes_won;  // per game seed, for paired comparisons
  double danish_win_rate() const { return games ? static_cast<double>(danish_wins) / games : 0; }
};

// The embedded value model's predictions at the start of every half-turn of a pairing's games,
// against the games' results.
struct ModelCalibration {
  std::vector<CalibrationBin> bins;  // ten bands of predicted P(the Danes win)
  double log_loss = 0;
  int positions = 0;
};

struct PairingOutcome {
  BalancePairing pairing;
  std::vector<VariantOutcome> variants;  // in the order of the variants given
  int closest = 0;                       // the variant whose win rate is closest to 50%
  ModelCalibration calibration;
};

struct BalanceResult {
  std::vector<PairingOutcome> pairings;  // in the order given; the first is the headline
  double seconds = 0;
};

BalanceResult run_balance_study(const std::vector<BalanceVariant>& variants,
                                const std::vector<BalancePairing>& pairings,
                                const BalanceOptions& options);

// b's Danish win rate minus a's over the same game seeds, with a 95% interval from the paired
// per-game differences (normal approximation).
struct PairedDifference {
  double mean = 0, low = 0, high = 0;
  int discordant = 0;  // seeds where the two variants' results differ
  bool separated() const { return low > 0 || high < 0; }
};
PairedDifference paired_difference(const VariantOutcome& a, const VariantOutcome& b);

// The variants next to `index` on the towns axis (a town fewer or more needed); for a variant off
// the axis, the default (index 0).
std::vector<int> balance_neighbours(const std::vector<VariantOutcome>& variants, int index);

// Writes DIR/report.md, DIR/danes_win_rate.svg and DIR/variants.csv.
void write_balance_report(const BalanceResult& result, const BalanceOptions& options,
                          const std::string& command, const std::string& dir);

std::string balance_svg(const BalanceResult& result);

}  // namespace sling::danelaw
