#pragma once
// The transposition table of a search graph: which node holds a state.  Open addressing over a
// power of two, at most half full; an entry keeps the state's 64-bit hash, the node, and a copy
// of the state, compared in full on a match so that a hash collision never merges two
// positions.  The slots are sized once; the state copies grow as the search enters states and
// keep their capacity, so after the first search a search allocates nothing.

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

namespace sling::search {

template <class State>
class TranspositionTable {
 public:
  static constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

  // Empties the table, sizing it (the first time) for `entries` states.
  void clear(std::int64_t entries) {
    if (slots_.empty()) {
      std::size_t size = 1024;
      while (static_cast<std::int64_t>(size) < 2 * entries) size *= 2;
      slots_.resize(size);
    }
    std::fill(slots_.begin(), slots_.end(), Slot{});
    states_.clear();
  }

  // The node that holds `state` (hashed to `hash`), or kNone after entering `node` as its
  // holder.  A full table enters nothing more: the states it misses keep nodes of their own.
  std::uint32_t find_or_add(std::uint64_t hash, const State& state, std::uint32_t node) {
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t slot = hash & mask;; slot = (slot + 1) & mask) {
      Slot& entry = slots_[slot];
      if (entry.state == 0) {
        if (states_.size() < slots_.size() / 2) {
          states_.push_back(state);
          entry = {hash, node, static_cast<std::uint32_t>(states_.size())};
        }
        return kNone;
      }
      if (entry.hash == hash && states_[entry.state - 1] == state) return entry.node;
    }
  }

  std::size_t size() const { return states_.size(); }

 private:
  struct Slot {
    std::uint64_t hash = 0;
    std::uint32_t node = 0;
    std::uint32_t state = 0;  // index into states_ + 1 (0: empty)
  };
  std::vector<Slot> slots_;
  std::vector<State> states_;
};

}  // namespace sling::search
