#include "experiments/match.h"

#include "engine/core/json_text.h"

#include <cmath>
#include <cstdio>
#include <sstream>

namespace sling {

namespace {

std::string number(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g", value);
  return buffer;
}

std::string percent(double fraction) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f%%", 100 * fraction);
  return buffer;
}

}  // namespace

Interval wilson_interval(std::int64_t successes, std::int64_t trials, double z) {
  if (trials <= 0) return {0, 1};
  const double n = static_cast<double>(trials);
  const double p = static_cast<double>(successes) / n;
  const double z2 = z * z;
  const double centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const double half = z * std::sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n);
  return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

std::string match_to_text(const MatchResult& r) {
  std::ostringstream out;
  out << r.game << ": " << r.games << " games, seed " << r.seed << "\n";
  for (int side = 0; side < 2; ++side) {
    const Interval ci = r.win_interval(side);
    out << "  " << r.sides[side] << " (" << r.specs[side] << ")\n"
        << "    wins " << r.wins[side] << " = " << percent(r.win_rate(side)) << "  [95% CI "
        << percent(ci.low) << " - " << percent(ci.high) << "]";
    if (r.errors[side]) out << "  (" << r.errors[side] << " lost to agent errors)";
    out << "\n";
  }
  if (r.draws) {
    const Interval ci = wilson_interval(r.draws, r.games);
    out << "  draws " << r.draws << " = " << percent(static_cast<double>(r.draws) / r.games)
        << "  [95% CI " << percent(ci.low) << " - " << percent(ci.high) << "]\n";
  }
  out << "  mean length " << number(r.mean_plies) << " plies; " << number(r.seconds) << " s\n";
  out << "  endings:";
  for (const auto& [reason, count] : r.end_reasons) out << " " << reason << " " << count << ";";
  out << "\n";
  if (r.turn_limit > 0) {
    out << "  turn limit " << r.turn_limit << " (a game still going then is a draw)\n";
  }
  if (r.luck) {
    const double narrower =
        r.adjusted.stddev > 0 ? r.score.stddev / r.adjusted.stddev : std::nan("");
    out << "  luck (values: " << r.luck_source << "):\n"
        << "    " << r.sides[0] << "'s score " << number(r.score.mean) << " [95% CI "
        << number(r.score.low) << " - " << number(r.score.high) << "]; adjusted for luck "
        << number(r.adjusted.mean) << " [" << number(r.adjusted.low) << " - "
        << number(r.adjusted.high) << "]: the interval is " << number(narrower)
        << " times narrower (the same precision from " << number(narrower * narrower)
        << " times fewer games)\n"
        << "    mean luck of " << r.sides[0] << " " << number(r.luck_of_side0.mean) << " [95% CI "
        << number(r.luck_of_side0.low) << " - " << number(r.luck_of_side0.high)
        << "] (zero in expectation)\n";
  }
  if (!r.first_error.empty()) out << "  first agent error: " << r.first_error << "\n";
  return out.str();
}

std::string match_to_json(const MatchResult& r) {
  std::ostringstream out;
  out << "{\n  \"game\": " << json_string(r.game) << ",\n  \"seed\": " << r.seed
      << ",\n  \"games\": " << r.games << ",\n  \"agents\": {";
  for (int side = 0; side < 2; ++side) {
    out << (side ? ", " : "") << json_string(r.sides[side]) << ": " << json_string(r.specs[side]);
  }
  out << "},\n  \"wins\": {";
  for (int side = 0; side < 2; ++side) {
    out << (side ? ", " : "") << json_string(r.sides[side]) << ": " << r.wins[side];
  }
  out << "},\n  \"draws\": " << r.draws << ",\n  \"win_rate\": {";
  for (int side = 0; side < 2; ++side) {
    const Interval ci = r.win_interval(side);
    out << (side ? ",\n" : "\n") << "    " << json_string(r.sides[side])
        << ": {\"rate\": " << number(r.win_rate(side)) << ", \"ci95_low\": " << number(ci.low)
        << ", \"ci95_high\": " << number(ci.high) << "}";
  }
  out << "\n  },\n  \"errors\": {";
  for (int side = 0; side < 2; ++side) {
    out << (side ? ", " : "") << json_string(r.sides[side]) << ": " << r.errors[side];
  }
  out << "},\n  \"end_reasons\": {";
  bool first = true;
  for (const auto& [reason, count] : r.end_reasons) {
    out << (first ? "" : ", ") << json_string(reason) << ": " << count;
    first = false;
  }
  out << "},\n";
  if (r.luck) {
    auto interval = [&](const char* name, const MeanInterval& m) {
      out << "    " << json_string(name) << ": {\"mean\": " << number(m.mean)
          << ", \"stddev\": " << number(m.stddev) << ", \"ci95_low\": " << number(m.low)
          << ", \"ci95_high\": " << number(m.high) << "}";
    };
    out << "  \"luck\": {\n    \"values\": " << json_string(r.luck_source) << ",\n";
    interval("score", r.score);
    out << ",\n";
    interval("adjusted_score", r.adjusted);
    out << ",\n";
    interval("luck", r.luck_of_side0);
    out << "\n  },\n";
  }
  out << "  \"turn_limit\": " << r.turn_limit << ",\n  \"mean_plies\": " << number(r.mean_plies)
      << ",\n  \"seconds\": " << number(r.seconds) << "\n}\n";
  return out.str();
}

}  // namespace sling
