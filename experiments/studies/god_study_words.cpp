#include "experiments/studies/god_study_words.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

namespace sling::duel::god_study {

const char* const kTurnBucketNames[kTurnBuckets] = {"1-2",   "3-4",   "5-6",   "7-10",
                                                    "11-15", "16-25", "26-50", "51+"};
int turn_bucket(int turn) {
  if (turn <= 2) return 0;
  if (turn <= 4) return 1;
  if (turn <= 6) return 2;
  if (turn <= 10) return 3;
  if (turn <= 15) return 4;
  if (turn <= 25) return 5;
  if (turn <= 50) return 6;
  return 7;
}

std::string roll_title(Roll roll) {
  switch (roll) {
    case Roll::kInitiative:
      return "Initiative";
    case Roll::kDavidMove:
      return "David's movement";
    case Roll::kStoneToHit:
      return "Stone to-hit";
    case Roll::kStoneDamage:
      return "Stone damage";
    case Roll::kStoneDaze:
      return "Stone daze";
    case Roll::kSearch:
      return "Search for a stone";
    case Roll::kFleeTest:
      return "Flee test";
    case Roll::kFleeMove:
      return "Flee movement";
    case Roll::kMelee:
      return "Melee dice";
    case Roll::kJavelin:
      return "Goliath's javelin to-hit";
    case Roll::kGoliathMove:
      return "Goliath's movement";
    case Roll::kRecover:
      return "Goliath's recovery";
    default:
      return std::string(DuelGame::roll_name(roll));
  }
}

std::string roll_advice(Roll roll) {
  switch (roll) {
    case Roll::kInitiative:
      return "a lost initiative roll";
    case Roll::kDavidMove:
      return "David's own movement roll";
    case Roll::kStoneToHit:
      return "a stone that misses";
    case Roll::kStoneDamage:
      return "a stone that Goliath's armour absorbs";
    case Roll::kStoneDaze:
      return "a stone that fails to daze Goliath";
    case Roll::kSearch:
      return "a failed search for a stone";
    case Roll::kFleeTest:
      return "a failed flee test";
    case Roll::kFleeMove:
      return "a short flight";
    case Roll::kMelee:
      return "a lost melee";
    case Roll::kJavelin:
      return "a javelin that hits David";
    case Roll::kGoliathMove:
      return "Goliath's movement roll";
    case Roll::kRecover:
      return "Goliath's recovery while David is beheading him";
    default:
      return roll_title(roll);
  }
}

std::string situation(const DuelGame& game, const DuelState& s) {
  const int d = s.dice[0], o = s.dice[1];
  char text[160];
  const int gap = static_cast<int>(std::floor(game.edge_distance_cm(s)));
  switch (s.roll) {
    case Roll::kInitiative:
      std::snprintf(text, sizeof text, "David %d, Goliath %d (%s)", d, o,
                    d > o ? "David first" : (d < o ? "Goliath first" : "tie"));
      break;
    case Roll::kDavidMove:
    case Roll::kFleeMove:
      std::snprintf(
          text, sizeof text, "die %d (%s), gap %d cm%s", d,
          d == 6 ? "no move" : (std::to_string(game.rules().david_move - d) + " cm").c_str(), gap,
          s.has(kDavidHasStone) ? ", stone in hand" : "");
      break;
    case Roll::kGoliathMove:
      std::snprintf(text, sizeof text, "die %d (Goliath moves up to %d cm), gap %d cm%s", d,
                    std::max(0, game.move_base(s, kGoliath) - d), gap,
                    s.has(kGoliathShield) ? "" : ", two-handed");
      break;
    case Roll::kStoneToHit:
      std::snprintf(text, sizeof text, "die %d vs capability %d (%s)", d,
                    game.shooting_capability(s, kDavid),
                    d <= game.shooting_capability(s, kDavid) ? "hit" : "miss");
      break;
    case Roll::kStoneDamage:
      std::snprintf(text, sizeof text, "die %d vs protection %d (%s)", d, game.protection(s),
                    d > game.protection(s) ? "damage" : "blocked");
      break;
    case Roll::kStoneDaze:
      std::snprintf(text, sizeof text, "die %d (%s)", d,
                    d <= game.rules().daze_max ? "dazed" : "not dazed");
      break;
    case Roll::kSearch:
      std::snprintf(text, sizeof text, "die %d (%s), gap %d cm", d,
                    d >= game.rules().search_min ? "found" : "not found", gap);
      break;
    case Roll::kFleeTest:
      std::snprintf(text, sizeof text, "die %d (%s)%s", d,
                    d >= game.rules().flee_min ? "escapes" : "stuck",
                    s.has(kGoliathDazed) ? ", Goliath dazed" : "");
      break;
    case Roll::kJavelin:
      std::snprintf(text, sizeof text, "die %d vs capability %d (%s)", d,
                    game.shooting_capability(s, kGoliath),
                    d <= game.shooting_capability(s, kGoliath) ? "David hit: dead" : "miss");
      break;
    case Roll::kMelee: {
      const int david = d + game.combat_value(s, kDavid),
                goliath = o + game.combat_value(s, kGoliath);
      std::snprintf(text, sizeof text, "David %d+%d vs Goliath %d+%d (%s)", d,
                    game.combat_value(s, kDavid), o, game.combat_value(s, kGoliath),
                    david < goliath ? "David killed" : (david > goliath ? "Goliath dazed" : "tie"));
      break;
    }
    case Roll::kRecover:
      std::snprintf(text, sizeof text, "die %d (%s)%s", d,
                    d >= game.rules().recover_min ? "recovers" : "stays dazed",
                    s.has(kBeheadPending) ? ", David beheading" : "");
      break;
    default:
      std::snprintf(text, sizeof text, "die %d", d);
  }
  return text;
}

std::string pct(double v, int digits) {
  char text[32];
  std::snprintf(text, sizeof text, "%.*f%%", digits, 100 * v);
  return text;
}
std::string num(double v, int digits) {
  char text[32];
  std::snprintf(text, sizeof text, "%.*f", digits, v);
  return text;
}

void write_advice(std::ostream& md, const GodStudyResult& result, const SolveSummary& summary,
                  double n) {
  std::vector<std::pair<std::int64_t, Roll>> uses;
  std::vector<Roll> never;
  for (Roll roll : kStudiedRolls) {
    const RollStudy& r = result.by_roll[static_cast<std::size_t>(roll)];
    if (r.rerolled > 0) uses.push_back({r.rerolled, roll});
    if (r.offered > 0 && r.rerolled * 1000 < r.offered) never.push_back(roll);
  }
  std::sort(uses.rbegin(), uses.rend());
  md << "## In short\n\n";
  md << "God is worth " << pct(summary.start - summary.start_without_god, 1)
     << " of win probability to David: with best play he wins " << pct(summary.start, 1)
     << " of games with God and " << pct(summary.start_without_god, 1) << " without. ";
  md << "Save God: optimal David spends it in " << pct(result.god_used_games / n, 0)
     << " of games and keeps it through most rolls";
  if (!uses.empty()) {
    md << ". Spend it on ";
    std::int64_t covered = 0;
    for (std::size_t k = 0; k < uses.size() && k < 4; ++k) {
      md << (k == 0                                           ? ""
             : k + 1 == std::min<std::size_t>(uses.size(), 4) ? " or "
                                                              : ", ")
         << roll_advice(uses[k].second);
      covered += uses[k].first;
    }
    md << " (together "
       << pct(static_cast<double>(covered) / std::max<std::int64_t>(1, result.god_used_games), 0)
       << " of the times optimal David invokes God)";
  }
  if (!never.empty()) {
    md << "; never on ";
    for (std::size_t k = 0; k < never.size() && k < 4; ++k) {
      md << (k == 0                                            ? ""
             : k + 1 == std::min<std::size_t>(never.size(), 4) ? " or "
                                                               : ", ")
         << roll_advice(never[k]);
    }
  }
  md << ".\n\n";
}

void write_rules_of_thumb(std::ostream& md, const GodStudyResult& result,
                          std::map<Roll, std::map<std::string, SituationStats>>& situations,
                          double n) {
  md << "## The optimal policy as rules of thumb\n\n"
     << "The rolls on which optimal David spends God, the most valuable first, each with the "
        "situations that decide it (how often God is spent there when the situation arises, and "
        "the win probability it adds).\n\n";
  std::vector<std::pair<double, Roll>> ranked;
  for (Roll roll : kStudiedRolls) {
    const RollStudy& r = result.by_roll[static_cast<std::size_t>(roll)];
    ranked.push_back({r.gain / n, roll});
  }
  std::sort(ranked.rbegin(), ranked.rend());
  int rule = 1;
  for (const auto& [gain_per_game, roll] : ranked) {
    const RollStudy& r = result.by_roll[static_cast<std::size_t>(roll)];
    if (r.rerolled == 0 || rule > 5) continue;
    // The rule names outcomes ("David killed", "recovers"), not exact dice: situations are
    // grouped by the outcome in their parentheses and the rest of their context.
    std::map<std::string, SituationStats> by_outcome;
    for (const auto& [key, st] : situations[roll]) {
      const auto open = key.find('('), close = key.find(')');
      std::string outcome =
          open == std::string::npos ? key : key.substr(open + 1, close - open - 1);
      if (close != std::string::npos && close + 1 < key.size()) outcome += key.substr(close + 1);
      if (roll == Roll::kGoliathMove || roll == Roll::kDavidMove || roll == Roll::kSearch)
        outcome = key;
      SituationStats& o = by_outcome[outcome];
      o.offered += st.offered;
      o.rerolled += st.rerolled;
      o.gain += st.gain;
    }
    std::vector<std::pair<std::string, SituationStats>> rows(by_outcome.begin(), by_outcome.end());
    std::sort(rows.begin(), rows.end(),
              [](const auto& a, const auto& b) { return a.second.rerolled > b.second.rerolled; });
    std::string when;
    int listed = 0;
    for (const auto& [key, st] : rows) {
      if (st.rerolled == 0 || listed >= 3) continue;
      when += std::string(listed ? "; " : "") + key + ": God spent " +
              pct(static_cast<double>(st.rerolled) / st.offered, 0) + " of the times, +" +
              pct(st.gain / static_cast<double>(st.rerolled), 1);
      ++listed;
    }
    md << rule++ << ". **" << roll_title(roll) << "** (re-roll " << roll_advice(roll)
       << "): God is spent here in " << pct(r.rerolled / n, 1) << " of games ("
       << pct(static_cast<double>(r.rerolled) / std::max<std::int64_t>(1, result.god_used_games), 0)
       << " of all uses), adding " << pct(r.gain / static_cast<double>(r.rerolled), 1)
       << " win probability on average. Situations: " << when << ".\n";
  }
  std::string never;
  for (Roll roll : kStudiedRolls) {
    const RollStudy& r = result.by_roll[static_cast<std::size_t>(roll)];
    if (r.offered > 0 && r.rerolled * 1000 < r.offered)
      never += (never.empty() ? "" : ", ") + roll_title(roll);
  }
  if (!never.empty())
    md << rule << ". **Almost never** (under 0.1% of the times offered): " << never << ".\n";
  md << "\n";
}

}  // namespace sling::duel::god_study
