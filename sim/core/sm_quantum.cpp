// An SM's quantum (TickBatch): several of its cycles in a row, before the other SMs' and
// before the shared memory system settles any of them. Nothing another SM does within the
// quantum can reach it: the memory answers no request sooner than the quantum's length
// (MemorySystem::lookahead), a retired block's room comes back no sooner (block_release),
// and the stores are applied at its end, in (cycle, SM) order.
#include <algorithm>
#include <exception>
#include <utility>

#include "core/sm.hpp"

namespace gpusim::core {

engine::Cycle Sm::run_quantum(engine::Cycle from, engine::Cycle end, exec::Executor& executor) {
  quantum_before_ = stats_.warp_instructions;
  executor_ = &executor;
  in_quantum_ = true;
  engine::Cycle at = from;
  size_t placed = 0;
  for (;;) {
    // A block the dispatcher gave it at a release in cycle r (at `now` r + 1) comes after
    // the SM's cycles before r and before its cycle r, as the release's event would.
    for (; placed < planned_.size() && planned_[placed].now - 1 <= at; ++placed) {
      const PlannedLaunch& p = planned_[placed];
      place_block(p.linear, p.now, p.eligible_at);
      at = std::min(at, p.now);
    }
    if (at >= end) break;
    run_cycle(at, executor);
    quantum_last_ = at;
    if (fault_) {
      fault_cycle_ = at;
      at = kNever;
      break;
    }
    if (retired_ > 0) quantum_retired_ = at;
    at = next_tick_;
  }
  planned_.clear();
  in_quantum_ = false;
  return at;
}

void Sm::rethrow_fault() { std::rethrow_exception(std::exchange(fault_, nullptr)); }

uint64_t Sm::end_quantum() {
  schedule_release();
  if (retired_ > 0) {  // (the dispatcher has no blocks left: a retired block's room comes back late else)
    dispatcher_.blocks_retired(id_, static_cast<uint64_t>(retired_), quantum_retired_);
    retired_ = 0;
  }
  return stats_.warp_instructions - quantum_before_;
}

}  // namespace gpusim::core
