#include "experiments/match.h"

#include "engine/core/json_writer.h"

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

namespace {

JsonNumber number_json(double value) {
  return JsonNumber::significant(value, 6);
}

void write_interval(JsonWriter& json, std::string_view name, const MeanInterval& m) {
  json.key(name).begin_object(JsonLayout::one_line);
  json.key("mean").number(number_json(m.mean)).key("stddev").number(number_json(m.stddev));
  json.key("ci95_low").number(number_json(m.low)).key("ci95_high").number(number_json(m.high));
  json.end_object();
}

// One value per side, keyed by the side's name, on one line.
template <class Value>
void write_by_side(JsonWriter& json, const MatchResult& r, std::string_view key, Value value) {
  json.key(key).begin_object(JsonLayout::one_line);
  for (int side = 0; side < 2; ++side) value(json.key(r.sides[side]), side);
  json.end_object();
}

}  // namespace

std::string match_to_json(const MatchResult& r) {
  JsonWriter json;
  json.begin_object();
  json.key("game").string(r.game).key("seed").integer(r.seed).key("games").integer(r.games);
  write_by_side(json, r, "agents", [&](JsonWriter& j, int side) { j.string(r.specs[side]); });
  write_by_side(json, r, "wins", [&](JsonWriter& j, int side) { j.integer(r.wins[side]); });
  json.key("draws").integer(r.draws);
  json.key("win_rate").begin_object();
  for (int side = 0; side < 2; ++side) {
    const Interval ci = r.win_interval(side);
    json.key(r.sides[side]).begin_object(JsonLayout::one_line);
    json.key("rate").number(number_json(r.win_rate(side)));
    json.key("ci95_low").number(number_json(ci.low)).key("ci95_high").number(number_json(ci.high));
    json.end_object();
  }
  json.end_object();
  write_by_side(json, r, "errors", [&](JsonWriter& j, int side) { j.integer(r.errors[side]); });
  json.key("end_reasons").begin_object(JsonLayout::one_line);
  for (const auto& [reason, count] : r.end_reasons) json.key(reason).integer(count);
  json.end_object();
  if (r.luck) {
    json.key("luck").begin_object().key("values").string(r.luck_source);
    write_interval(json, "score", r.score);
    write_interval(json, "adjusted_score", r.adjusted);
    write_interval(json, "luck", r.luck_of_side0);
    json.end_object();
  }
  json.key("turn_limit").integer(r.turn_limit).key("mean_plies").number(number_json(r.mean_plies));
  json.key("seconds").number(number_json(r.seconds));
  return json.end_object().take_document();
}

// The explicit instantiations that experiments/match.h declares (why: there).
template MatchResult run_match(const pig::PigGame&, const std::array<std::string, 2>&,
                               const MatchOptions&, const AgentFactory<pig::PigGame>&);
template MatchResult run_match(const duel::DuelGame&, const std::array<std::string, 2>&,
                               const MatchOptions&, const AgentFactory<duel::DuelGame>&);
template MatchResult run_match(const danelaw::DanelawGame&, const std::array<std::string, 2>&,
                               const MatchOptions&, const AgentFactory<danelaw::DanelawGame>&);

}  // namespace sling
