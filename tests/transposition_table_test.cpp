// The transposition table of the MCTS graph (search/transposition_table.h) on its own: a state
// is found by its hash and its full copy, a collision is no match, and a full table enters
// nothing more.  Its use in the search: Mcts.Transpositions* (tests/search_test.cpp).

#include <gtest/gtest.h>

#include "search/transposition_table.h"

namespace sling::search {
namespace {

TEST(TranspositionTable, FindsAStateByItsHashAndItsCopyAndStopsAtHalfFull) {
  struct Pair {
    int a = 0, b = 0;
    bool operator==(const Pair&) const = default;
  };
  TranspositionTable<Pair> table;
  table.clear(10);  // the smallest table: 1,024 slots, 512 states
  EXPECT_EQ(table.find_or_add(7, {1, 2}, 3), TranspositionTable<Pair>::kNone);
  EXPECT_EQ(table.find_or_add(7, {1, 2}, 4), 3u);
  // The same hash for another state (a collision) is not a match.
  EXPECT_EQ(table.find_or_add(7, {2, 1}, 5), TranspositionTable<Pair>::kNone);
  EXPECT_EQ(table.find_or_add(7, {2, 1}, 6), 5u);
  EXPECT_EQ(table.size(), 2u);
  for (int i = 0; i < 600; ++i) table.find_or_add(1000 + i, {i, -i}, 100 + i);
  EXPECT_EQ(table.size(), 512u);
  EXPECT_EQ(table.find_or_add(5000, {9, 9}, 1), TranspositionTable<Pair>::kNone);
  EXPECT_EQ(table.find_or_add(5000, {9, 9}, 2), TranspositionTable<Pair>::kNone);  // not entered
  EXPECT_EQ(table.find_or_add(7, {1, 2}, 8), 3u);
  table.clear(10);
  EXPECT_EQ(table.size(), 0u);
  EXPECT_EQ(table.find_or_add(7, {1, 2}, 9), TranspositionTable<Pair>::kNone);
}

}  // namespace
}  // namespace sling::search
