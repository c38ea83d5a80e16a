#include "experiments/tournament/report.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <sstream>
#include <vector>

#include "engine/core/io.h"
#include "engine/core/json_writer.h"
#include "engine/core/xml_text.h"
#include "experiments/analysis/luck.h"
#include "experiments/tournament/text_format.h"

namespace sling {

namespace fs = std::filesystem;
using tournament_text::format_number;

namespace {

// The fit again on each game's score minus side 0's luck.  The Bradley-Terry score equations
// (score - P) and their curvature (P (1 - P)) hold for any real score, so a game's adjusted score
// may lie outside [0, 1]; but the fit has a finite solution only where each cell's (agents and
// sides) mean score lies strictly inside it.  A one-sided cell whose adjusted mean falls outside
// (a weak agent's losses exceed its chances) keeps its plain scores: its result decides anyway.
// A game without a measured luck keeps its plain score.
void add_luck(TournamentReport& report, const TournamentConfig& config,
              const std::vector<GameRow>& rows, const TournamentLuck& luck,
              std::vector<RatedGame> rated) {
  report.luck = true;
  report.luck_source = luck.source;
  std::vector<double> game_luck(rows.size(), std::nan(""));
  std::map<std::pair<int, int>, std::pair<double, int>> cells;  // adjusted sum, games
  std::vector<double> lucks;
  std::vector<std::int64_t> pairs;
  for (std::size_t g = 0; g < rows.size(); ++g) {
    const auto it = luck.by_game.find(rows[g].game_id);
    if (it == luck.by_game.end() || !std::isfinite(it->second)) continue;
    game_luck[g] = it->second;
    auto& cell = cells[{rows[g].agent0, rows[g].agent1}];
    cell.first += rated[g].score0 - it->second;
    ++cell.second;
    lucks.push_back(it->second);
    pairs.push_back(rows[g].pair_id);
    ++report.luck_games;
  }
  for (std::size_t g = 0; g < rows.size(); ++g) {
    if (!std::isfinite(game_luck[g])) continue;
    const auto& cell = cells[{rows[g].agent0, rows[g].agent1}];
    const double mean = cell.first / cell.second;
    if (mean > 0 && mean < 1) rated[g].score0 -= game_luck[g];
  }
  if (report.luck_games > 0) {
    // The two games of a pair share their dice, so side 0's luck in one is close to its luck in
    // the other: the interval is the pairs', not the games'.
    const MeanInterval interval = clustered_mean_interval(lucks, pairs);
    report.mean_luck = interval.mean;
    report.mean_luck_low = interval.low;
    report.mean_luck_high = interval.high;
  }
  report.adjusted_fit =
      fit_ratings(config.agents, rated, {.intervals = IntervalMethod::kClustered});
}

}  // namespace

TournamentReport make_report(const TournamentConfig& config, const SideNames& sides,
                             const std::vector<GameRow>& rows, const TournamentLuck* luck) {
  TournamentReport report;
  report.game = config.game;
  report.sides = sides;
  report.agents = config.agents;
  report.games = static_cast<std::int64_t>(rows.size());
  report.total_games = Schedule(config).total_games();
  const std::size_t n = config.agents.size();
  std::vector<std::vector<double>> points(n, std::vector<double>(n, 0.0));
  report.games_between.assign(n, std::vector<int>(n, 0));
  std::vector<std::array<double, 2>> side_points(n, {0.0, 0.0});
  report.side_games.assign(n, {0, 0});
  std::vector<RatedGame> rated;
  for (const GameRow& row : rows) {
    const double score0 = side0_score(row);
    rated.push_back({row.agent0, row.agent1, score0, row.pair_id});
    points[row.agent0][row.agent1] += score0;
    points[row.agent1][row.agent0] += 1.0 - score0;
    ++report.games_between[row.agent0][row.agent1];
    ++report.games_between[row.agent1][row.agent0];
    side_points[row.agent0][0] += score0;
    side_points[row.agent1][1] += 1.0 - score0;
    ++report.side_games[row.agent0][0];
    ++report.side_games[row.agent1][1];
    ++report.ends[row.end];
    if (row.winner < 0) ++report.draws;
    if (row.winner >= 0) ++report.side_wins[row.winner];
    if (row.end == "error") ++report.errors;
  }
  const double nan = std::numeric_limits<double>::quiet_NaN();
  report.score_rate.assign(n, std::vector<double>(n, nan));
  report.side_score_rate.assign(n, {nan, nan});
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      if (report.games_between[i][j] > 0) {
        report.score_rate[i][j] = points[i][j] / report.games_between[i][j];
      }
    }
    for (int side = 0; side < 2; ++side) {
      if (report.side_games[i][side] > 0) {
        report.side_score_rate[i][side] = side_points[i][side] / report.side_games[i][side];
      }
    }
  }
  report.fit = fit_ratings(config.agents, rated, {.intervals = IntervalMethod::kClustered});
  if (luck != nullptr) add_luck(report, config, rows, *luck, rated);
  return report;
}

namespace {

// Agents by rating, strongest first (ties by name, so the order is reproducible).
std::vector<int> ranking(const TournamentReport& report) {
  std::vector<int> order(report.agents.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    const double ea = report.fit.agents[a].elo, eb = report.fit.agents[b].elo;
    if (ea != eb) return ea > eb;
    return report.agents[a] < report.agents[b];
  });
  return order;
}

std::string percent(double rate) {
  return std::isfinite(rate) ? format_number("%.1f%%", 100 * rate) : "-";
}

std::string signed_elo(double elo) {
  if (!std::isfinite(elo)) return elo > 0 ? "+inf" : "-inf";
  return std::abs(elo) < 0.5 ? "+0" : format_number("%+.0f", elo);  // never "-0"
}

std::string pad(const std::string& text, std::size_t width, bool left = true) {
  if (text.size() >= width) return text;
  return left ? text + std::string(width - text.size(), ' ')
              : std::string(width - text.size(), ' ') + text;
}

}  // namespace

namespace {

// A matrix over the agents in rank order: a header of ranks, then one row per agent.
template <class Cell>
void write_matrix(std::ostringstream& out, const TournamentReport& report,
                  const std::vector<int>& order, std::size_t name_width, const Cell& cell) {
  out << pad("", name_width + 5);
  for (std::size_t c = 0; c < order.size(); ++c) out << pad("#" + std::to_string(c + 1), 7, false);
  out << "\n";
  for (std::size_t r = 0; r < order.size(); ++r) {
    out << pad("#" + std::to_string(r + 1) + " " + report.agents[order[r]], name_width + 5);
    for (int c : order) out << pad(cell(order[r], c), 7, false);
    out << "\n";
  }
}

std::string luck_table(const TournamentReport& report, const std::vector<int>& order,
                       std::size_t name_width) {
  std::ostringstream out;
  out << "\nAdjusted for luck (each game's score minus the luck of its dice; values: "
      << report.luck_source << "; " << report.luck_games << " games measured):\n";
  out << "Mean luck of " << report.sides[0] << ": " << format_number("%+.4f", report.mean_luck)
      << " [" << format_number("%+.4f", report.mean_luck_low) << ", "
      << format_number("%+.4f", report.mean_luck_high) << "] (zero in expectation)\n";
  // What separates agents is the interval of their difference (the ratings' common shift
  // cancels): each agent against the next one down, adjusted and plain.
  out << "rank  " << pad("agent", name_width)
      << "   Elo   95% interval   vs next: adjusted  plain   narrower\n";
  for (std::size_t r = 0; r < order.size(); ++r) {
    const int i = order[r];
    const AgentRating& a = report.adjusted_fit.agents[i];
    out << pad(std::to_string(r + 1), 4, false) << "  " << pad(report.agents[i], name_width)
        << pad(signed_elo(a.elo), 6, false) << "  "
        << pad("[" + signed_elo(a.ci_low) + ", " + signed_elo(a.ci_high) + "]", 13);
    if (r + 1 < order.size()) {
      const int next = order[r + 1];
      const double adjusted = 1.959963984540054 * report.adjusted_fit.difference_stderr(i, next);
      const double plain = 1.959963984540054 * report.fit.difference_stderr(i, next);
      out << pad(format_number("%+.0f", report.adjusted_fit.agents[i].elo -
                                            report.adjusted_fit.agents[next].elo) +
                     format_number(" ±%.0f", adjusted),
                 19, false)
          << pad(format_number("±%.0f", plain), 7, false)
          << pad(adjusted > 0 ? format_number("%.1fx", plain / adjusted) : "-", 10, false);
    }
    out << "\n";
  }
  out << "Likelihood of superiority adjusted for luck (row stronger than column):\n";
  write_matrix(out, report, order, name_width, [&](int i, int j) {
    return i == j ? std::string("-") : percent(report.adjusted_fit.likelihood_of_superiority(i, j));
  });
  return out.str();
}

}  // namespace

std::string report_table(const TournamentReport& report) {
  const std::vector<int> order = ranking(report);
  std::size_t name_width = 5;
  for (const auto& name : report.agents) name_width = std::max(name_width, name.size());
  std::ostringstream out;
  out << "Tournament: " << report.game << ", " << report.games << " of " << report.total_games
      << " games\n";
  out << "Side advantage of " << report.sides[0] << ": "
      << signed_elo(report.fit.side_advantage_elo) << " Elo ["
      << signed_elo(report.fit.side_advantage_ci_low) << ", "
      << signed_elo(report.fit.side_advantage_ci_high) << "] (" << report.sides[0] << " won "
      << report.side_wins[0] << ", " << report.sides[1] << " won " << report.side_wins[1]
      << ", draws " << report.draws << ")\n";
  out << "Intervals: 95%, "
      << (report.fit.intervals == IntervalMethod::kClustered
              ? "from the spread of the pair results (games of a pair share their dice)"
              : "from the model (few pairs, or an agent or side won all or none of its games)")
      << "\n\n";
  out << "rank  " << pad("agent", name_width) << "   Elo   95% interval   games   score  "
      << pad(report.sides[0], 8, false) << " " << pad(report.sides[1], 8, false) << "\n";
  for (std::size_t r = 0; r < order.size(); ++r) {
    const int i = order[r];
    const AgentRating& a = report.fit.agents[i];
    out << pad(std::to_string(r + 1), 4, false) << "  " << pad(report.agents[i], name_width)
        << pad(signed_elo(a.elo), 6, false) << "  "
        << pad("[" + signed_elo(a.ci_low) + ", " + signed_elo(a.ci_high) + "]", 13) << " "
        << pad(std::to_string(a.games), 6, false) << " "
        << pad(percent(a.games ? a.score / a.games : std::nan("")), 7, false) << "  "
        << pad(percent(report.side_score_rate[i][0]), 8, false) << " "
        << pad(percent(report.side_score_rate[i][1]), 8, false) << "\n";
  }
  out << "\nScore of the row agent against the column agent (both sides; draws count half):\n";
  write_matrix(out, report, order, name_width,
               [&](int i, int j) { return percent(report.score_rate[i][j]); });
  out << "\nLikelihood of superiority (row stronger than column):\n";
  write_matrix(out, report, order, name_width, [&](int i, int j) {
    return i == j ? std::string("-") : percent(report.fit.likelihood_of_superiority(i, j));
  });
  if (report.luck) out << luck_table(report, order, name_width);
  out << "\nHow games ended:";
  for (const auto& [reason, count] : report.ends) out << "  " << reason << " " << count;
  out << "\n(draws " << report.draws << ", agent errors " << report.errors << ")\n";
  return out.str();
}

namespace {

// Elo and its intervals with two decimals, rates and likelihoods with four.
JsonNumber elo_json(double elo) {
  return JsonNumber::fixed(elo, 2);
}
JsonNumber rate_json(double rate) {
  return JsonNumber::fixed(rate, 4);
}

void write_ratings(JsonWriter& json, const TournamentReport& report, const AgentRating& a, int i) {
  json.key("name").string(report.agents[i]).key("elo").number(elo_json(a.elo));
  json.key("ci95_low").number(elo_json(a.ci_low)).key("ci95_high").number(elo_json(a.ci_high));
}

// A square of values between the agents in ranking order, a row a line.
template <class Value>
void write_matrix_json(JsonWriter& json, std::string_view key, const std::vector<int>& order,
                       Value value) {
  json.key(key).begin_array();
  for (const int row : order) {
    json.begin_array(JsonLayout::one_line);
    for (const int column : order) value(row, column);
    json.end_array();
  }
  json.end_array();
}

void write_luck_adjusted_json(JsonWriter& json, const TournamentReport& report,
                              const std::vector<int>& order) {
  json.key("luck_adjusted").begin_object();
  json.key("values").string(report.luck_source).key("games").integer(report.luck_games);
  json.key("mean_luck").number(JsonNumber::fixed(report.mean_luck, 5));
  json.key("mean_luck_ci95").begin_array(JsonLayout::one_line);
  json.number(JsonNumber::fixed(report.mean_luck_low, 5));
  json.number(JsonNumber::fixed(report.mean_luck_high, 5)).end_array();
  json.key("side_advantage_elo").number(elo_json(report.adjusted_fit.side_advantage_elo));
  json.key("agents").begin_array();
  for (const int i : order) {
    json.begin_object(JsonLayout::one_line);
    write_ratings(json, report, report.adjusted_fit.agents[i], i);
    json.end_object();
  }
  json.end_array();
  write_matrix_json(json, "likelihood_of_superiority", order, [&](int i, int j) {
    if (i == j) {
      json.null();
    } else {
      json.number(rate_json(report.adjusted_fit.likelihood_of_superiority(i, j)));
    }
  });
  json.end_object();
}

}  // namespace

std::string report_json(const TournamentReport& report) {
  const std::vector<int> order = ranking(report);
  JsonWriter json;
  json.begin_object().key("game").string(report.game);
  json.key("sides").begin_array(JsonLayout::one_line);
  json.string(report.sides[0]).string(report.sides[1]).end_array();
  json.key("games").integer(report.games).key("total_games").integer(report.total_games);
  json.key("side_advantage_elo").number(elo_json(report.fit.side_advantage_elo));
  json.key("side_advantage_ci95").begin_array(JsonLayout::one_line);
  json.number(elo_json(report.fit.side_advantage_ci_low));
  json.number(elo_json(report.fit.side_advantage_ci_high)).end_array();
  json.key("intervals")
      .string(report.fit.intervals == IntervalMethod::kClustered ? "pair-clustered" : "model");
  json.key("agents").begin_array();
  for (const int i : order) {
    const AgentRating& a = report.fit.agents[i];
    json.begin_object(JsonLayout::one_line);
    write_ratings(json, report, a, i);
    json.key("games").integer(a.games);
    json.key("score").number(rate_json(a.games ? a.score / a.games : std::nan("")));
    for (int side = 0; side < 2; ++side) {
      json.key("score_as_" + report.sides[side]).number(rate_json(report.side_score_rate[i][side]));
    }
    json.end_object();
  }
  json.end_array();
  json.key("matrix_order").begin_array(JsonLayout::one_line);
  for (const int i : order) json.string(report.agents[i]);
  json.end_array();
  write_matrix_json(json, "score_matrix", order,
                    [&](int i, int j) { json.number(rate_json(report.score_rate[i][j])); });
  write_matrix_json(json, "games_matrix", order,
                    [&](int i, int j) { json.integer(report.games_between[i][j]); });
  write_matrix_json(json, "likelihood_of_superiority", order, [&](int i, int j) {
    if (i == j) {
      json.null();
    } else {
      json.number(rate_json(report.fit.likelihood_of_superiority(i, j)));
    }
  });
  json.key("ends").begin_object(JsonLayout::one_line);
  for (const auto& [reason, count] : report.ends) json.key(reason).integer(count);
  json.end_object();
  json.key("draws").integer(report.draws).key("errors").integer(report.errors);
  if (report.luck) write_luck_adjusted_json(json, report, order);
  return json.end_object().take_document();
}

std::string report_svg(const TournamentReport& report) {
  const std::vector<int> order = ranking(report);
  std::size_t name_width = 5;
  for (const auto& name : report.agents) name_width = std::max(name_width, name.size());
  const double label = 20 + 7.0 * static_cast<double>(name_width);
  const double plot = 480, row_height = 26, top = 40;
  const double width = label + plot + 30;
  const double height = top + row_height * static_cast<double>(order.size()) + 40;
  // The Elo range covered by every finite interval, padded and rounded to the tick step.
  double low = 0, high = 0;
  for (const AgentRating& a : report.fit.agents) {
    if (std::isfinite(a.ci_low)) low = std::min(low, a.ci_low);
    if (std::isfinite(a.ci_high)) high = std::max(high, a.ci_high);
  }
  double step = 10;
  for (double candidate : {10.0, 25.0, 50.0, 100.0, 200.0, 500.0, 1000.0}) {
    step = candidate;
    if ((high - low) / candidate <= 8) break;
  }
  low = std::floor(low / step) * step - step;
  high = std::ceil(high / step) * step + step;
  auto x_of = [&](double elo) {
    return label + plot * (std::clamp(elo, low, high) - low) / (high - low);
  };
  auto number = [](double value) { return format_number("%.1f", value); };
  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << number(width) << "\" height=\""
      << number(height) << "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  svg << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  svg << "<text x=\"10\" y=\"20\" font-size=\"14\">" << report.game << ": Bradley-Terry ratings"
      << " (Elo, 95% intervals), " << report.games << " games</text>\n";
  const double axis_y = top + row_height * static_cast<double>(order.size());
  for (double tick = low; tick <= high + 1e-9; tick += step) {
    const double x = x_of(tick);
    svg << "<line x1=\"" << number(x) << "\" y1=\"" << number(top - 8) << "\" x2=\"" << number(x)
        << "\" y2=\"" << number(axis_y) << "\" stroke=\"" << (tick == 0 ? "#888" : "#ddd")
        << "\"/>\n";
    svg << "<text x=\"" << number(x) << "\" y=\"" << number(axis_y + 16)
        << "\" text-anchor=\"middle\">" << format_number("%+.0f", tick) << "</text>\n";
  }
  for (std::size_t r = 0; r < order.size(); ++r) {
    const AgentRating& a = report.fit.agents[order[r]];
    const double y = top + row_height * (static_cast<double>(r) + 0.5);
    svg << "<text x=\"" << number(label - 10) << "\" y=\"" << number(y + 4)
        << "\" text-anchor=\"end\">" << xml_escaped(report.agents[order[r]]) << "</text>\n";
    svg << "<line x1=\"" << number(x_of(a.ci_low)) << "\" y1=\"" << number(y) << "\" x2=\""
        << number(x_of(a.ci_high)) << "\" y2=\"" << number(y)
        << "\" stroke=\"#3465a4\" stroke-width=\"2\"/>\n";
    svg << "<circle cx=\"" << number(x_of(a.elo)) << "\" cy=\"" << number(y)
        << "\" r=\"4\" fill=\"#204a87\"/>\n";
    svg << "<text x=\"" << number(x_of(a.ci_high) + 6) << "\" y=\"" << number(y + 4) << "\">"
        << signed_elo(a.elo) << "</text>\n";
  }
  svg << "</svg>\n";
  return svg.str();
}

void write_report_files(const std::string& out_dir, const TournamentReport& report) {
  write_file_atomic((fs::path(out_dir) / "ratings.json").string(), report_json(report));
  write_file_atomic((fs::path(out_dir) / "ratings.svg").string(), report_svg(report));
}

}  // namespace sling
