#pragma once
// The scratch memory of danelaw's movement queries, made explicit.  The Dijkstra queries need a
// workspace, and listing an army's destinations and then applying one asks the same question twice
// in a row, so the last answer is worth keeping.  A caller that runs many queries owns a
// DanelawScratch and passes it in; the game's own const hooks (legal_actions, apply_action,
// candidate_actions, heuristic_action), which the Game concept gives no scratch argument, borrow
// one from the game's ScratchPool for the length of the call.  So no query keeps hidden per-thread
// state, concurrent callers never share scratch, and once warm no query allocates.

#include <array>
#include <atomic>
#include <cstdint>

#include "engine/danelaw/map.h"
#include "engine/danelaw/movement.h"

namespace sling::danelaw {

// The last answer of DanelawGame::destinations, keyed by everything it depends on.
struct DestinationMemo {
  std::uint64_t movement = 0;  // Movement::id() of the game that answered; 0 = none yet
  int side = -1, hex = -1, points = -1;
  HexSet occupied, enemy;
  ReachList result;
};

struct DanelawScratch {
  MovementWorkspace movement;
  DestinationMemo destinations;
};

// A lock-free pool of scratch: borrow() takes a free one (or makes one when all are out, the only
// allocation) and the lease gives it back.  Thread-safe; a game and its copies share one pool.
class ScratchPool {
 public:
  class Lease {
   public:
    Lease(ScratchPool* pool, DanelawScratch* scratch) : pool_(pool), scratch_(scratch) {}
    Lease(Lease&& other) noexcept : pool_(other.pool_), scratch_(other.scratch_) {
      other.scratch_ = nullptr;
    }
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    Lease& operator=(Lease&&) = delete;
    ~Lease() {
      if (scratch_) pool_->give_back(scratch_);
    }
    DanelawScratch& operator*() const { return *scratch_; }
    DanelawScratch* operator->() const { return scratch_; }

   private:
    ScratchPool* pool_;
    DanelawScratch* scratch_;
  };

  ScratchPool() = default;
  ScratchPool(const ScratchPool&) = delete;
  ScratchPool& operator=(const ScratchPool&) = delete;
  ~ScratchPool();

  Lease borrow();

 private:
  // More scratch than this in use at once (more threads than slots) is made and freed per call.
  static constexpr int kSlots = 64;
  void give_back(DanelawScratch* scratch);
  std::array<std::atomic<DanelawScratch*>, kSlots> free_{};
};

}  // namespace sling::danelaw
