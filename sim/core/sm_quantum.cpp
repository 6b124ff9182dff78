// An SM's quantum (TickBatch): several of its cycles in a row, before the other SMs' and
// before the shared memory system settles any of them. Nothing another SM does within the
// quantum can reach it: the memory answers no request sooner than the quantum's length
// (MemorySystem::lookahead), a retired block's room comes back no sooner (block_release)
// or the SM stops after the cycle that retires it (stop_at_retire) until the batch has
// given the room back in (cycle, SM) order, and the stores are applied at its end, in
// (cycle, SM) order.
#include <exception>
#include <utility>

#include "core/sm.hpp"

namespace gpusim::core {

void Sm::begin_quantum(engine::Cycle from, uint32_t slices) {
  quantum_before_ = stats_.warp_instructions;
  quantum_at_ = from;
  quantum_placed_ = 0;
  in_quantum_ = true;
  memory_.begin_quantum(id_, slices);
}

// run_until is in sm.cpp, beside the cycle it runs.

void Sm::hand_back_retired() {
  dispatcher_.blocks_retired(id_, static_cast<uint64_t>(retired_), stopped_at_);
  retired_ = 0;
  stopped_at_ = kNever;
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
