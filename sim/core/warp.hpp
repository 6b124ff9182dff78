// A warp as the timed SM sees it: what the scheduler reads every cycle first (within one
// cache line), then its scoreboard and its functional state.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/hoist_queue.hpp"
#include "core/instruction_class.hpp"
#include "core/stall.hpp"
#include "core/scoreboard.hpp"
#include "engine/event_queue.hpp"
#include "exec/warp_state.hpp"

namespace gpusim::core {

// The warp's cp.async copies not yet in shared memory, by commit group.
struct AsyncCopies {
  struct Copy {
    uint32_t ticket;   // the load's, until its response
    uint32_t group;
    engine::Cycle at;  // when its data is in shared memory; kNever until the response
  };
  std::vector<Copy> in_flight;
  uint32_t open_group = 0;  // groups before it are committed

  // When a wait may go on: for wait_group N, once every committed group older than the N
  // newest is in shared memory; for wait_all (a commit, then wait_group 0), every copy.
  engine::Cycle ready_at(uint32_t allowed, bool all) const {
    engine::Cycle at = 0;
    for (const Copy& c : in_flight)
      if (all || c.group + allowed < open_group) at = std::max(at, c.at);
    return at;
  }
  // The response for `ticket` came at `now`; its data is written `write` cycles later. False
  // when no copy of this warp waits for it.
  bool arrived(uint32_t ticket, engine::Cycle now, engine::Cycle write) {
    std::erase_if(in_flight, [&](const Copy& c) { return c.at <= now; });
    for (Copy& c : in_flight)
      if (c.ticket == ticket && c.at == engine::kNever) {
        c.at = now + write;
        return true;
      }
    return false;
  }
};

// What a scheduler's scan reads of a warp every cycle. The SM keeps these in one array, by
// warp slot, apart from the rest of the warp: a scan then touches a few host cache lines
// instead of one per warp looked at (those misses were most of the scan's time).
struct WarpGate {
  engine::Cycle eligible_at = 0;  // its block's launch cost; a barrier's release; a nanosleep's end
  engine::Cycle operands_at = 0;  // when the next instruction's operands are ready
  const InstructionTiming* next = nullptr;
  Stall eligible_wait = Stall::BlockLaunch;  // what eligible_at waits for: block launch, barrier or sleeping
  Stall operands_wait = Stall::Wait;         // what operands_at waits for: wait, long or short scoreboard
  bool at_barrier = false;
  bool next_known = false;  // next/operands_at are valid until the warp issues or a load returns
};

struct TimedWarp {
  bool done = true;
  bool next_set_aside = false;  // next is the head of `hoist`, not the instruction at the PC
  uint32_t unrolled_trips = 0;  // taken back branches of unrolled loops: where a SASS body ends (latencies.taken_branch)
  bool next_waited_memory = false;  // next was found waiting for a load: it uses a loaded value
  uint32_t slot = 0;                // warp slot on the SM: scheduler = slot % schedulers
  uint64_t age = 0;                 // launch order, for greedy-then-oldest
  uint32_t block_slot = 0;          // index into the SM's resident blocks
  uint32_t barrier_id = 0;
  engine::Cycle start = 0;          // for the trace
  engine::Cycle issued_at = engine::kNever;  // for the source view: when it last issued,
  size_t issued_index = 0;                   // and which instruction
  Scoreboard scoreboard;
  AsyncCopies async;
  HoistQueue hoist;
  exec::WarpState state;
};

}  // namespace gpusim::core
