// The balance study's report: the answer for strong players first, then how it moves with the
// players' strength, the records behind it, the +10 option and the value model's calibration.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "engine/core/io.h"
#include "engine/core/xml_text.h"
#include "experiments/studies/danelaw_balance.h"

namespace sling::danelaw {

namespace {

std::string percent(double x) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "%.1f%%", 100 * x);
  return buffer;
}

std::string points(double x) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "%+.1f", 100 * x);
  return buffer;
}

std::string fixed(double x, int digits = 1) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.*f", digits, x);
  return buffer;
}

std::string rate_with_interval(const VariantOutcome& v) {
  return percent(v.danish_win_rate()) + " (" + percent(v.interval.low) + " to " +
         percent(v.interval.high) + ")";
}

std::string who(const BalancePairing& p) {
  return p.names[kDanes] + " Danes against " + p.names[kEnglish] + " English";
}

std::string rules_summary(const DanelawRules& r) {
  return std::to_string(r.danish_pool()) + " v " + std::to_string(r.pool) + ", " +
         std::to_string(r.danes_at_sea) + " at sea, " + std::to_string(r.towns_to_win) + " towns";
}

std::string difference_text(const PairedDifference& d) {
  return points(d.mean) + " points (" + points(d.low) + " to " + points(d.high) + ", " +
         std::to_string(d.discordant) + " games differ)";
}

// Whether the pairing's fairest variant is told apart from its neighbours on paired games.
std::string separation(const PairingOutcome& p) {
  const VariantOutcome& best = p.variants[p.closest];
  const std::vector<int> neighbours = balance_neighbours(p.variants, p.closest);
  if (neighbours.empty()) return "It has no neighbour among the variants played.";
  bool all = true;
  std::string parts;
  for (int n : neighbours) {
    const PairedDifference d = paired_difference(best, p.variants[n]);
    all = all && d.separated();
    if (!parts.empty()) parts += "; ";
    parts += p.variants[n].variant.name + " " + difference_text(d);
  }
  return std::string(all ? "It is separated from its neighbours"
                         : "It is **not** separated "
                           "from every neighbour") +
         " on the same dice: " + parts + " against " + best.variant.name + ".";
}

void write_answer(std::ostringstream& md, const BalanceResult& result) {
  const PairingOutcome& head = result.pairings[0];
  const VariantOutcome& best = head.variants[head.closest];
  const VariantOutcome& base = head.variants[0];
  md << "**Answer for " << who(head.pairing) << ".** Of the variants played, **"
     << best.variant.name << "** is closest to an even game: the Danes win "
     << rate_with_interval(best) << ", " << best.games
     << " games. Under the default rules they win " << rate_with_interval(base) << ". "
     << separation(head) << "\n\n"
     << "**How the answer moves with strength.** The fairest variant for each pairing, and the "
        "Danes' win rate under the default rules:\n\n";
  for (const PairingOutcome& p : result.pairings) {
    const VariantOutcome& v = p.variants[p.closest];
    md << "- " << who(p.pairing) << ": **" << v.variant.name << "**, " << rate_with_interval(v)
       << "; default " << percent(p.variants[0].danish_win_rate()) << ".\n";
  }
  md << "\n";
}

void write_win_table(std::ostringstream& md, const BalanceResult& result) {
  md << "## The Danes' win rate by variant and players\n\n| variant |";
  for (const PairingOutcome& p : result.pairings)
    md << " " << p.pairing.names[kDanes] << " / " << p.pairing.names[kEnglish] << " |";
  md << "\n|---|";
  for (std::size_t i = 0; i < result.pairings.size(); ++i) md << "---|";
  md << "\n";
  for (std::size_t v = 0; v < result.pairings[0].variants.size(); ++v) {
    const BalanceVariant& variant = result.pairings[0].variants[v].variant;
    md << "| " << variant.name << " (" << rules_summary(variant.rules) << ") |";
    for (const PairingOutcome& p : result.pairings) {
      const VariantOutcome& o = p.variants[v];
      const bool closest = static_cast<int>(v) == p.closest;
      md << " " << (closest ? "**" : "") << percent(o.danish_win_rate()) << (closest ? "**" : "")
         << " (" << percent(o.interval.low) << "-" << percent(o.interval.high) << ") |";
    }
    md << "\n";
  }
  md << "\nBold: each pairing's variant closest to 50%. Intervals are 95% Wilson intervals.\n\n";
}

void write_records(std::ostringstream& md, const BalanceResult& result) {
  md << "## Why the fairest variant moves: the default rules' games\n\n"
     << "| players | Danes win | towns at end | most towns held | at turn | Danes lost | English "
        "lost | Danes wiped out |\n|---|---|---|---|---|---|---|---|\n";
  for (const PairingOutcome& p : result.pairings) {
    const VariantOutcome& v = p.variants[0];
    md << "| " << who(p.pairing) << " | " << percent(v.danish_win_rate()) << " | "
       << fixed(v.mean_final_towns) << " | " << fixed(v.mean_peak_towns) << " | "
       << fixed(v.mean_peak_turn) << " | " << fixed(v.mean_danes_lost) << " | "
       << fixed(v.mean_english_lost) << " | " << v.wiped_out << " |\n";
  }
  md << "\nTowns at end and most towns held are means over the games (the most is taken at the "
        "start of each half-turn and at the end); *at turn* is the mean turn of that peak; armies "
        "lost are destroyed in battle (routs and placements excluded).\n\n";
  // The headline pairing against the weakest symmetric one, in words.
  const VariantOutcome& strong = result.pairings[0].variants[0];
  for (const PairingOutcome& p : result.pairings) {
    if (&p == &result.pairings[0] || p.pairing.names[0] != p.pairing.names[1]) continue;
    const VariantOutcome& weak = p.variants[0];
    md << "Against " << who(p.pairing) << ", " << who(result.pairings[0].pairing) << " end with "
       << fixed(strong.mean_final_towns) << " towns instead of " << fixed(weak.mean_final_towns)
       << " (peak " << fixed(strong.mean_peak_towns) << " at turn " << fixed(strong.mean_peak_turn)
       << " instead of " << fixed(weak.mean_peak_towns) << " at turn " << fixed(weak.mean_peak_turn)
       << "); the Danes lose " << fixed(strong.mean_danes_lost) << " armies instead of "
       << fixed(weak.mean_danes_lost) << ", the English " << fixed(strong.mean_english_lost)
       << " instead of " << fixed(weak.mean_english_lost) << ".\n\n";
  }
}

void write_extra_danes(std::ostringstream& md, const BalanceResult& result) {
  md << "## The +10 Danes option\n\nPaired on the same dice, against the default rules:\n\n"
     << "| players | +10 Danes (in reserve) | +10 Danes, all at sea |\n|---|---|---|\n";
  for (const PairingOutcome& p : result.pairings) {
    md << "| " << who(p.pairing) << " |";
    for (const char* name : {"+10 Danes", "+10 Danes, all at sea"}) {
      bool found = false;
      for (const VariantOutcome& v : p.variants) {
        if (v.variant.name != name) continue;
        md << " " << difference_text(paired_difference(p.variants[0], v)) << " |";
        found = true;
      }
      if (!found) md << " not played |";
    }
    md << "\n";
  }
  md << "\n";
}

void write_calibration(std::ostringstream& md, const BalanceResult& result) {
  md << "## The value model's calibration on these games\n\n"
     << "The embedded model's P(the Danes win) at the start of every half-turn of each "
        "pairing's games (every variant), against how those games ended:\n\n| predicted |";
  for (const PairingOutcome& p : result.pairings)
    md << " " << p.pairing.names[kDanes] << " / " << p.pairing.names[kEnglish] << " |";
  md << "\n|---|";
  for (std::size_t i = 0; i < result.pairings.size(); ++i) md << "---|";
  md << "\n";
  const std::size_t bins = result.pairings[0].calibration.bins.size();
  for (std::size_t b = 0; b < bins; ++b) {
    const CalibrationBin& band = result.pairings[0].calibration.bins[b];
    md << "| " << fixed(band.low, 1) << "-" << fixed(band.high, 1) << " |";
    for (const PairingOutcome& p : result.pairings) {
      const CalibrationBin& c = p.calibration.bins[b];
      if (c.count == 0) {
        md << " - |";
      } else {
        md << " " << fixed(c.predicted, 2) << " → " << fixed(c.observed, 2) << " (" << c.count
           << ") |";
      }
    }
    md << "\n";
  }
  md << "| log loss |";
  for (const PairingOutcome& p : result.pairings)
    md << " " << fixed(p.calibration.log_loss, 3) << " (" << p.calibration.positions
       << " positions) |";
  md << "\n\nEach cell: mean prediction → observed Danish win rate (positions). Positions of one "
        "game share its result, so a band's observed rate is less certain than its count "
        "suggests.\n\n";
}

std::string variants_csv(const BalanceResult& result) {
  std::ostringstream csv;
  csv << "danes,english,variant,pool,danes_extra,danes_at_sea,turn_limit,towns_to_win,games,"
         "danish_wins,low,high,final_towns,peak_towns,peak_turn,danes_lost,english_lost,"
         "wiped_out\n";
  for (const PairingOutcome& p : result.pairings) {
    for (const VariantOutcome& v : p.variants) {
      const DanelawRules& r = v.variant.rules;
      csv << '"' << p.pairing.specs[kDanes] << "\",\"" << p.pairing.specs[kEnglish] << "\",\""
          << v.variant.name << "\"," << r.pool << ',' << r.danes_extra << ',' << r.danes_at_sea
          << ',' << r.turn_limit << ',' << r.towns_to_win << ',' << v.games << ',' << v.danish_wins
          << ',' << v.interval.low << ',' << v.interval.high << ',' << v.mean_final_towns << ','
          << v.mean_peak_towns << ',' << v.mean_peak_turn << ',' << v.mean_danes_lost << ','
          << v.mean_english_lost << ',' << v.wiped_out << "\n";
    }
  }
  return csv.str();
}

}  // namespace

std::string balance_svg(const BalanceResult& result) {
  // A dot plot: one band per variant, a dot and its 95% interval per pairing, 50% marked.
  static constexpr const char* kColours[] = {"#b2182b", "#2166ac", "#4d4d4d",
                                             "#e08214", "#1b7837", "#762a83"};
  const int pairings = static_cast<int>(result.pairings.size());
  const int variants = static_cast<int>(result.pairings[0].variants.size());
  const int step = 9, band = step * pairings + 10, left = 250, width = 440, top = 50;
  const int axis = top + band * variants;
  const int legend = axis + 36;
  const int height = legend + 20 * pairings + 10;
  // The canvas widens for long legend labels (agent specs), at about 7.5 px a character.
  std::size_t longest = 0;
  for (const auto& p : result.pairings) longest = std::max(longest, who(p.pairing).size());
  const int canvas = std::max(left + width + 30, left + 12 + static_cast<int>(7.5 * longest) + 10);
  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << canvas << "\" height=\"" << height
      << "\" font-family=\"sans-serif\" font-size=\"13\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<text x=\"10\" y=\"22\" font-size=\"15\">Danes' win rate by rule variant and players "
         "(95% interval)</text>\n";
  for (int tick = 0; tick <= 100; tick += 10) {
    const double x = left + width * tick / 100.0;
    svg << "<line x1=\"" << x << "\" y1=\"" << top - 10 << "\" x2=\"" << x << "\" y2=\"" << axis
        << "\" stroke=\"" << (tick == 50 ? "#c00" : "#ddd") << "\"/>\n"
        << "<text x=\"" << x - 10 << "\" y=\"" << axis + 18 << "\">" << tick << "%</text>\n";
  }
  for (int v = 0; v < variants; ++v) {
    const double y0 = top + band * v;
    svg << "<text x=\"10\" y=\"" << y0 + band / 2.0 + 4 << "\">"
        << xml_escaped(result.pairings[0].variants[v].variant.name) << "</text>\n";
    if (v > 0)
      svg << "<line x1=\"10\" y1=\"" << y0 << "\" x2=\"" << left + width << "\" y2=\"" << y0
          << "\" stroke=\"#eee\"/>\n";
    for (int p = 0; p < pairings; ++p) {
      const VariantOutcome& o = result.pairings[p].variants[v];
      const double y = y0 + 5 + step * (p + 0.5);
      const char* colour = kColours[p % 6];
      const bool closest = v == result.pairings[p].closest;
      svg << "<line x1=\"" << left + width * o.interval.low << "\" y1=\"" << y << "\" x2=\""
          << left + width * o.interval.high << "\" y2=\"" << y << "\" stroke=\"" << colour
          << "\" stroke-width=\"2\"/>\n"
          << "<circle cx=\"" << left + width * o.danish_win_rate() << "\" cy=\"" << y << "\" r=\""
          << (closest ? 5 : 3.5) << "\" fill=\"" << (closest ? "white" : colour) << "\" stroke=\""
          << colour << "\" stroke-width=\"2\"/>\n";
    }
  }
  for (int p = 0; p < pairings; ++p) {
    const double y = legend + 20 * p;
    svg << "<circle cx=\"" << left << "\" cy=\"" << y - 4 << "\" r=\"4\" fill=\"" << kColours[p % 6]
        << "\"/>\n<text x=\"" << left + 12 << "\" y=\"" << y << "\">"
        << xml_escaped(who(result.pairings[p].pairing)) << "</text>\n";
  }
  svg << "<text x=\"10\" y=\"" << legend << "\" fill=\"#555\">open dot: the players'</text>\n"
      << "<text x=\"10\" y=\"" << legend + 16 << "\" fill=\"#555\">fairest variant</text>\n"
      << "</svg>\n";
  return svg.str();
}

void write_balance_report(const BalanceResult& result, const BalanceOptions& options,
                          const std::string& command, const std::string& dir) {
  std::filesystem::create_directories(dir);
  std::ostringstream md;
  md << "# Danelaw balance: which rules make a fair game, and for whom?\n\n";
  write_answer(md, result);
  md << "Every variant and pairing plays the same " << options.games
     << " game seeds, so the dice are common across variants and players. Agents:\n\n";
  for (const PairingOutcome& p : result.pairings)
    md << "- " << who(p.pairing) << ": `" << p.pairing.specs[kDanes] << "` against `"
       << p.pairing.specs[kEnglish] << "`\n";
  md << "\nReproduce: `" << command << "` (" << fixed(result.seconds, 0) << " s)\n\n"
     << "![Danes' win rate by variant and players](danes_win_rate.svg)\n\n";
  write_win_table(md, result);
  write_records(md, result);
  write_extra_danes(md, result);
  write_calibration(md, result);
  const std::filesystem::path out(dir);
  write_file_atomic((out / "report.md").string(), md.str());
  write_file_atomic((out / "danes_win_rate.svg").string(), balance_svg(result));
  write_file_atomic((out / "variants.csv").string(), variants_csv(result));
}

}  // namespace sling::danelaw
