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
  begin_quantum(from, 0);
  run_until(end, executor);
  return finish_quantum();
}

void Sm::begin_quantum(engine::Cycle from, uint32_t slices) {
  quantum_before_ = stats_.warp_instructions;
  quantum_at_ = from;
  quantum_placed_ = 0;
  in_quantum_ = true;
  memory_.begin_quantum(id_, slices);
}

void Sm::run_until(engine::Cycle until, exec::Executor& executor) {
  executor_ = &executor;
  engine::Cycle at = quantum_at_;
  while (!fault_) {
    // A block the dispatcher gave it at a release in cycle r (at `now` r + 1) comes after
    // the SM's cycles before r and before its cycle r, as the release's event would.
    for (; quantum_placed_ < planned_.size() && planned_[quantum_placed_].now - 1 <= at; ++quantum_placed_) {
      const PlannedLaunch& p = planned_[quantum_placed_];
      place_block(p.linear, p.now, p.eligible_at);
      at = std::min(at, p.now);
    }
    if (at >= until) break;
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
  quantum_at_ = at;
}

engine::Cycle Sm::finish_quantum() {
  planned_.clear();
  in_quantum_ = false;
  return quantum_at_;
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
