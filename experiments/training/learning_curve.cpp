#include "experiments/training/learning_curve.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "engine/core/format.h"
#include "engine/core/io.h"
#include "engine/core/json_text.h"
#include "experiments/sprt.h"

namespace sling::danelaw {

namespace {

// A champion's point from its pairs' winners against the reference.
CurvePoint rated(int generation, int champion, const std::vector<int>& winners) {
  // Only the test's pentanomial statistics are read here, not its decision.
  Sprt pairs(SprtParameters{});
  for (std::size_t i = 0; i + 1 < winners.size(); i += 2) {
    pairs.add_pair_winners(winners[i], winners[i + 1]);
  }
  CurvePoint p;
  p.generation = generation;
  p.champion = champion;
  p.pairs = static_cast<int>(pairs.pairs());
  p.score = pairs.score();
  p.elo = pairs.elo();
  const double half = pairs.elo_ci_halfwidth();
  p.low = std::isfinite(half) ? p.elo - half : p.elo;
  p.high = std::isfinite(half) ? p.elo + half : p.elo;
  return p;
}

}  // namespace

std::vector<CurvePoint> learning_curve(const std::vector<GenerationRecord>& generations,
                                       bool reference_is_start,
                                       const std::vector<int>& start_curve_winners) {
  std::vector<CurvePoint> points;
  if (reference_is_start) {
    points.push_back({});  // generation 0 is the reference itself
  } else if (!start_curve_winners.empty()) {
    points.push_back(rated(0, 0, start_curve_winners));
  }
  for (const GenerationRecord& g : generations) {
    if (g.curve_winners.empty()) {  // not rated, or the champion is the reference itself
      if (reference_is_start && g.champion == 0) points.push_back({g.generation, 0, 0, 0.5});
      continue;
    }
    points.push_back(rated(g.generation, g.champion, g.curve_winners));
  }
  return points;
}

std::vector<CurvePoint> gate_points(const std::vector<GenerationRecord>& generations) {
  std::vector<CurvePoint> points;
  for (const GenerationRecord& g : generations) {
    CurvePoint p;
    p.generation = g.generation;
    p.champion = g.accepted ? g.generation : g.champion;
    p.elo = g.gate_elo;
    p.low = g.gate_elo - g.gate_elo_ci;
    p.high = g.gate_elo + g.gate_elo_ci;
    points.push_back(p);
  }
  return points;
}

std::string learning_curve_svg(const std::vector<CurvePoint>& points,
                               const std::vector<CurvePoint>& gates) {
  const double width = 720, height = 420, left = 80, right = 30, top = 76, bottom = 100;
  double low = 0, high = 0;
  int last = 1;
  for (const auto* series : {&points, &gates}) {
    for (const CurvePoint& p : *series) {
      low = std::min(low, p.low);
      high = std::max(high, p.high);
      last = std::max(last, p.generation);
    }
  }
  const double step = (high - low) > 200 ? 100 : (high - low) > 80 ? 50 : 20;
  low = std::floor(low / step) * step - (low == 0 ? step : 0);
  high = std::ceil(high / step) * step + (high == 0 ? step : 0);
  // A quarter of a generation to spare on the right: each gate is drawn beside its generation.
  const auto x = [&](double g) { return left + (width - left - right) * g / (last + 0.25); };
  const auto y = [&](double e) {
    return top + (height - top - bottom) * (high - e) / (high - low);
  };
  std::string svg;
  char buffer[512];
  append_format(svg,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%g\" height=\"%g\" "
                "font-family=\"sans-serif\">\n",
                width, height);
  append_format(svg, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
  append_format(
      svg,
      "<text x=\"%g\" y=\"28\" font-size=\"17\" text-anchor=\"middle\">Danelaw self-play by "
      "generations</text>\n",
      width / 2);
  for (double e = low; e <= high + 1e-9; e += step) {
    append_format(svg, "<line x1=\"%g\" x2=\"%g\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n", left,
                  width - right, y(e), y(e), e == 0 ? "#555" : "#ddd");
    const double label = std::abs(e) < 1e-9 ? 0.0 : e;  // "0", not "+0" or "-0"
    append_format(
        svg,
        label == 0
            ? "<text x=\"%g\" y=\"%.1f\" font-size=\"13\" text-anchor=\"end\">%.0f</text>\n"
            : "<text x=\"%g\" y=\"%.1f\" font-size=\"13\" text-anchor=\"end\">%+.0f</text>\n",
        left - 8, y(e) + 4, label);
  }
  for (int g = 0; g <= last; ++g) {
    append_format(svg,
                  "<text x=\"%.1f\" y=\"%g\" font-size=\"13\" text-anchor=\"middle\">%d</text>\n",
                  x(g), height - bottom + 20, g);
  }
  append_format(
      svg, "<text x=\"%g\" y=\"%g\" font-size=\"14\" text-anchor=\"middle\">generation</text>\n",
      (left + width - right) / 2, height - bottom + 45);
  append_format(svg, "<text x=\"%g\" y=\"%g\" font-size=\"14\">Elo (95 %% interval)</text>\n",
                left - 50, top - 16);
  std::string line;
  for (const CurvePoint& p : points) {
    append_format(svg,
                  "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#4477aa\" "
                  "stroke-width=\"2\"/>\n",
                  x(p.generation), x(p.generation), y(p.low), y(p.high));
    append_format(svg, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"#4477aa\"/>\n",
                  x(p.generation), y(p.elo));
    std::snprintf(buffer, sizeof buffer, "%.1f,%.1f ", x(p.generation), y(p.elo));
    line += buffer;
  }
  svg +=
      "<polyline fill=\"none\" stroke=\"#4477aa\" stroke-width=\"1.5\" points=\"" + line + "\"/>\n";
  // The gates, a little to the right of their generation so that the two never hide each
  // other.
  for (const CurvePoint& p : gates) {
    const double at = x(p.generation + 0.1);
    append_format(svg,
                  "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ee7733\" "
                  "stroke-width=\"2\"/>\n",
                  at, at, y(p.low), y(p.high));
    append_format(svg,
                  "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"white\" stroke=\"#ee7733\" "
                  "stroke-width=\"2\"/>\n",
                  at, y(p.elo));
  }
  const double legend = height - 22;
  append_format(svg, "<circle cx=\"%g\" cy=\"%g\" r=\"5\" fill=\"#4477aa\"/>\n", left - 50,
                legend - 4);
  append_format(svg,
                "<text x=\"%g\" y=\"%g\" font-size=\"13\">champion against the reference</text>\n",
                left - 38, legend);
  append_format(svg,
                "<circle cx=\"%g\" cy=\"%g\" r=\"5\" fill=\"white\" stroke=\"#ee7733\" "
                "stroke-width=\"2\"/>\n",
                left + 250, legend - 4);
  append_format(svg,
                "<text x=\"%g\" y=\"%g\" font-size=\"13\">candidate against its champion "
                "(the gate)</text>\n",
                left + 262, legend);
  return svg + "</svg>\n";
}

namespace {
std::string elo_text(const CurvePoint& p) {
  char text[96];
  if (p.pairs == 0) return "0 (the reference)";
  std::snprintf(text, sizeof text, "%+.0f (%+.0f to %+.0f)", p.elo, p.low, p.high);
  return text;
}

std::string plain_answer(const std::vector<GenerationRecord>& generations,
                         const std::vector<CurvePoint>& points) {
  const int accepted =
      static_cast<int>(std::count_if(generations.begin(), generations.end(),
                                     [](const GenerationRecord& g) { return g.accepted; }));
  const int champion = generations.empty() ? 0 : generations.back().champion;
  char text[600];
  std::snprintf(text, sizeof text,
                "**Answer.** After %zu generations the champion is gen-%d: %d of %zu candidates "
                "passed the gate.",
                generations.size(), champion, accepted, generations.size());
  std::string answer = text;
  if (!points.empty() && points.back().pairs > 0) {
    const CurvePoint& p = points.back();
    std::snprintf(text, sizeof text,
                  " Against the reference it scores %.1f %% over %d pairs of games on shared "
                  "dice: %s Elo, %s.",
                  100 * p.score, p.pairs, elo_text(p).c_str(),
                  p.low > 0    ? "stronger than the reference"
                  : p.high < 0 ? "weaker than the reference"
                               : "not told apart from the reference at this sample");
    answer += text;
  }
  return answer;
}

}  // namespace

std::string write_learning_curve(const std::string& dir, const CurveSettings& settings,
                                 const std::vector<GenerationRecord>& generations) {
  const std::vector<CurvePoint> points =
      learning_curve(generations, settings.reference_is_start, settings.start_curve_winners);
  namespace fs = std::filesystem;
  write_file_atomic((fs::path(dir) / "learning-curve.svg").string(),
                    learning_curve_svg(points, gate_points(generations)));
  std::string md = "# Danelaw self-play by generations\n\n" + plain_answer(generations, points) +
                   "\n\n![Learning curve](learning-curve.svg)\n\n";
  const bool tuned = std::any_of(generations.begin(), generations.end(),
                                 [](const GenerationRecord& g) { return g.positions == 0; });
  md += tuned ? "Each generation the champion's agent plays itself with its evaluation's weights "
                "perturbed one way against the other, and the weights step towards the side "
                "that scores (SPSA, tuning by play); the tuned candidate replaces the champion "
                "only when an SPRT on paired games accepts that it is stronger."
              : "Each generation the champion plays itself (both sides search), a candidate model "
                "is fitted on every position so far, and it replaces the champion only when an "
                "SPRT on paired games accepts that it is stronger.";
  md +=
      " The curve rates each generation's champion against one fixed reference in paired games "
      "on shared dice (95 % intervals from the spread of the pair totals).\n\n";
  md +=
      "| generation | self-play: Danes won | positions | held-out log loss: candidate (champion) "
      "| gate (candidate "
      "against champion) | decision | champion | Elo against the reference |\n";
  md += "| --- | --- | --- | --- | --- | --- | --- | --- |\n";
  std::size_t next_point = 0;
  if (!points.empty() && points[0].generation == 0) {
    ++next_point;
    if (!settings.reference_is_start) {  // generation 0 rated against another reference
      md += "| 0 | | | | | the start | gen-0 | " + elo_text(points[0]) + " |\n";
    }
  }
  for (const GenerationRecord& g : generations) {
    std::string elo = "not rated";
    if (next_point < points.size() && points[next_point].generation == g.generation) {
      elo = elo_text(points[next_point++]);
    }
    // A tuned generation's games are the tuning's; it fits no positions and predicts nothing.
    append_format(md, "| %d | %d of %d | ", g.generation, g.danish_wins, g.games);
    if (g.positions == 0) {
      md += "tuned by play | | ";
    } else {
      append_format(md, "%d | %.4f (%.4f) | ", g.positions, g.log_loss, g.champion_log_loss);
    }
    append_format(md, "%s | %s | gen-%d | %s |\n", g.gate.c_str(),
                  g.accepted ? "accepted" : "rejected", g.champion, elo.c_str());
  }
  md += "\nThe agent of every generation: `" + settings.agent +
        "` with `value_model` naming the generation's model (`gen-K.json` here). The reference: `" +
        settings.reference +
        "`.\n\nReproduce (the same command continues a stopped run):\n\n```sh\n" +
        settings.command + "\n```\n";
  const std::string path = (fs::path(dir) / "report.md").string();
  write_file_atomic(path, md);
  return path;
}

}  // namespace sling::danelaw
