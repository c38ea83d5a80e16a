// Formatting into strings of any length: append_format, and the referee's tables, whose rows name
// an agent by its whole spec (hundreds of characters for the danelaw presets).

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>

#include "engine/core/format.h"
#include "experiments/studies/danelaw_referee.h"

namespace sling {
namespace {

TEST(AppendFormat, WritesTextOfAnyLengthWhole) {
  std::string out = "start ";
  const std::string long_text(5000, 'x');
  append_format(out, "%s|%d|%.2f", long_text.c_str(), 42, 0.5);
  EXPECT_EQ(out, "start " + long_text + "|42|0.50");
  append_format(out, "%s", "");
  EXPECT_EQ(out.size(), 6 + 5000 + 8u);
}

// Every line of a markdown table has as many cells as its header.
void expect_whole_rows(const std::string& tables) {
  std::istringstream in(tables);
  std::string line;
  long cells = -1;
  int rows = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] != '|') {
      cells = -1;
      continue;
    }
    const long count = std::count(line.begin(), line.end(), '|');
    if (cells < 0) cells = count;
    EXPECT_EQ(count, cells) << line.substr(0, 120);
    EXPECT_EQ(line.back(), '|') << line.substr(0, 120);
    ++rows;
  }
  EXPECT_GE(rows, 12);  // four tables: a header, a rule and at least one row each
}

TEST(RefereeTables, RowsNamingALongSpecKeepEveryColumn) {
  danelaw::RefereeRow row;
  row.scenario = "holt-2";
  row.agent = "planner:" + std::string(700, 'p');
  row.games = 10;
  row.danes_seat.decisions = 123;
  row.english_seat.mistakes = 7;
  const std::string tables = danelaw::referee_tables({row});
  expect_whole_rows(tables);
  EXPECT_NE(tables.find("| Danes | 123 | 0 |"), std::string::npos);
  EXPECT_NE(tables.find("| English | 0 | 7 |"), std::string::npos);
}

}  // namespace
}  // namespace sling
