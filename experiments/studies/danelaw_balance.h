#pragma once
// Danelaw's balance study (`sling study balance danelaw`): the strongest agent of each side (by
// default the planner for the Danes and the heuristic for the English, docs/strength.md) plays
// over a set of rule variants, every variant on the same game seeds (so variants are compared on
// the same dice stream), and the report gives the Danes' win rate with its 95% Wilson interval per
// variant, the variant closest to 50%, and from the games' records where the Danes stall: the towns
// they hold at the end, the most they ever held, and the armies they lose.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/danelaw/danelaw.h"
#include "experiments/match.h"

namespace sling::danelaw {

struct BalanceVariant {
  std::string name;  // e.g. "+10 Danes"
  DanelawRules rules;
};

// The default pool, the seed's +10 Danes, turn limits 12/36/48, fewer towns needed, and the
// +10 Danes with fewer towns, all from `base`.
std::vector<BalanceVariant> default_balance_variants(const DanelawRules& base);

struct BalanceOptions {
  std::array<std::string, 2> agents = {"strong", "easy"};  // Danes, English: presets or specs
  int games = 100;                                         // per variant
  std::uint64_t seed = 1;
  int threads = 0;
};

struct VariantOutcome {
  BalanceVariant variant;
  std::array<std::string, 2> agent_specs;  // each side's agent, every option spelled out
  int games = 0;
  int danish_wins = 0;
  Interval interval;
  double mean_final_towns = 0;   // Danish towns at the end
  double mean_peak_towns = 0;    // the most the Danes ever held in the game
  double mean_danes_lost = 0;    // Danish armies destroyed
  double mean_english_lost = 0;  // English armies (field and militia) destroyed
  double mean_peak_turn = 0;     // the turn of the Danes' peak
  int wiped_out = 0;             // games where the Danes had no army left
  double danish_win_rate() const { return games ? static_cast<double>(danish_wins) / games : 0; }
};

struct BalanceResult {
  std::vector<VariantOutcome> variants;
  int closest = 0;  // index of the variant whose win rate is closest to 50%
  double seconds = 0;
};

// `specs` (Danes, English) are already resolved (no preset names).
BalanceResult run_balance_study(const std::vector<BalanceVariant>& variants,
                                const std::array<std::string, 2>& specs,
                                const BalanceOptions& options);

// Writes DIR/report.md, DIR/danes_win_rate.svg and DIR/variants.csv.
void write_balance_report(const BalanceResult& result, const BalanceOptions& options,
                          const std::string& command, const std::string& dir);

std::string balance_svg(const BalanceResult& result);

}  // namespace sling::danelaw
