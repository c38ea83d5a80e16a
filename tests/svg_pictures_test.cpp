// Every picture Sling draws reads at a glance: each SVG renders with rsvg-convert, and no label
// is cut at the edge or overlaps another (town names on the danelaw map, its legend, the God
// study's charts and colour bars).

#include <gtest/gtest.h>

#include <string>

#include "engine/danelaw/danelaw.h"
#include "engine/danelaw/render.h"
#include "tests/svg_check.h"

namespace sling::danelaw {
namespace {

using testing_support::render_svg;
using testing_support::svg_label_problems;

std::string joined(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

TEST(SvgPictures, DanelawMapLabelsNeitherOverlapNorGetCut) {
  const DanelawGame game;
  // Labels of 8 units and more: town names, sector numbers and the legend (the 5-unit hex labels
  // sit inside their hexes by construction).
  const std::string empty = svg_map(game, nullptr);
  EXPECT_EQ(joined(svg_label_problems(empty, 8)), "");
  EXPECT_EQ(render_svg(empty, "danelaw-map"), "");
  // With the armies of the opening position on the board.
  const State start = game.initial_state();
  const std::string armies = svg_map(game, &start);
  EXPECT_EQ(joined(svg_label_problems(armies, 8)), "");
  EXPECT_EQ(render_svg(armies, "danelaw-start"), "");
}

TEST(SvgPictures, TheCheckerFindsOverlapsAndCutLabels) {
  const std::string svg =
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100\" height=\"50\" font-size=\"10\">"
      "<text x=\"10\" y=\"20\">Bamburgh</text><text x=\"30\" y=\"22\">Lindisfarne</text>"
      "<text x=\"90\" y=\"45\">edge</text></svg>";
  const std::vector<std::string> problems = svg_label_problems(svg, 8);
  ASSERT_EQ(problems.size(), 2u) << joined(problems);
  EXPECT_EQ(problems[0], "'Bamburgh' overlaps 'Lindisfarne'");
  EXPECT_EQ(problems[1], "'edge' is cut at the picture's edge");
}

}  // namespace
}  // namespace sling::danelaw
