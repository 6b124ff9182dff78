// A warp as the timed SM sees it: what the scheduler reads every cycle first (within one
// cache line), then its scoreboard and its functional state.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "core/instruction_class.hpp"
#include "core/scoreboard.hpp"
#include "engine/event_queue.hpp"
#include "exec/warp_state.hpp"

namespace gpusim::core {

// The warp's cp.async copies still in flight, by commit group.
struct AsyncCopies {
  std::vector<std::pair<uint32_t, uint32_t>> in_flight;  // (load ticket, group)
  uint32_t open_group = 0;  // groups before it are committed
  // Whether a wait must still wait: for wait_group N, a committed group older than the N
  // newest is in flight; for wait_all (a commit, then wait_group 0), any copy is.
  bool must_wait(uint32_t allowed, bool all) const {
    for (const auto& [ticket, group] : in_flight)
      if (all || group + allowed < open_group) return true;
    return false;
  }
};

struct TimedWarp {
  bool done = true;
  bool at_barrier = false;
  bool next_known = false;  // next/operands_at are valid until the warp issues or a load returns
  bool operands_from_memory = false;
  uint32_t slot = 0;                // warp slot on the SM: scheduler = slot % schedulers
  engine::Cycle eligible_at = 0;    // its block's launch cost; a barrier's release
  engine::Cycle operands_at = 0;    // when the next instruction's operands are ready
  const InstructionTiming* next = nullptr;
  uint64_t age = 0;                 // launch order, for greedy-then-oldest
  uint32_t block_slot = 0;          // index into the SM's resident blocks
  uint32_t barrier_id = 0;
  engine::Cycle start = 0;          // for the trace
  Scoreboard scoreboard;
  AsyncCopies async;
  exec::WarpState state;
};

}  // namespace gpusim::core
