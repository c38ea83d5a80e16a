#include "engine/danelaw/scratch.h"

namespace sling::danelaw {

ScratchPool::~ScratchPool() {
  for (auto& slot : free_) delete slot.load(std::memory_order_acquire);
}

ScratchPool::Lease ScratchPool::borrow() {
  for (auto& slot : free_) {
    if (slot.load(std::memory_order_relaxed) == nullptr) continue;
    if (DanelawScratch* scratch = slot.exchange(nullptr, std::memory_order_acquire)) {
      return Lease(this, scratch);
    }
  }
  return Lease(this, new DanelawScratch);
}

void ScratchPool::give_back(DanelawScratch* scratch) {
  for (auto& slot : free_) {
    DanelawScratch* empty = nullptr;
    if (slot.compare_exchange_strong(empty, scratch, std::memory_order_release,
                                     std::memory_order_relaxed)) {
      return;
    }
  }
  delete scratch;
}

}  // namespace sling::danelaw
