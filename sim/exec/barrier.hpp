// Barrier semantics of one block (bar.sync / bar.arrive / __syncthreads), shared by the
// functional runner and the timed SM so that both release warps by the same rule: a
// barrier completes when the warps it expects have arrived (its thread count rounded up
// to warps, or every live warp of the block when it has no count), or when warps exit
// and every remaining live warp is waiting at a block-wide barrier.
#pragma once

#include <array>
#include <cstdint>

#include "exec/warp_state.hpp"

namespace gpusim::exec {

class BarrierTable {
 public:
  static constexpr uint32_t kBarriers = 16;

  // A warp arrives at barrier `id` with the instruction's thread count (0: the whole
  // block). True when this completes the barrier; it is then reset for its next use.
  bool arrive(uint32_t id, uint32_t threads, uint32_t live_warps) {
    Barrier& b = bars_[id];
    b.expected = threads ? (threads + kWarpSize - 1) / kWarpSize : 0;
    ++b.arrived;
    if (b.arrived < expected(id, live_warps)) return false;
    b = {};
    return true;
  }
  // A warp of the block exited, leaving `live_warps`: the block-wide barriers this
  // completes (one bit per barrier id), each reset.
  uint32_t warp_exited(uint32_t live_warps) {
    uint32_t done = 0;
    for (uint32_t id = 0; id < kBarriers; ++id) {
      Barrier& b = bars_[id];
      if (b.arrived == 0 || b.expected != 0 || b.arrived < live_warps) continue;
      b = {};
      done |= 1u << id;
    }
    return done;
  }
  uint32_t arrived(uint32_t id) const { return bars_[id].arrived; }
  uint32_t expected(uint32_t id, uint32_t live_warps) const {
    return bars_[id].expected ? bars_[id].expected : live_warps;
  }
  void reset() { bars_ = {}; }

 private:
  struct Barrier {
    uint32_t arrived = 0;   // warps
    uint32_t expected = 0;  // warps, from the count operand; 0 = every live warp
  };
  std::array<Barrier, kBarriers> bars_{};
};

}  // namespace gpusim::exec
