// An SM's load/store unit: shared memory through the SM's banks, parameters and constants
// from the constant cache, and global and local memory through the memory system's port,
// whose response arrives as an event. Shared-memory passes and global/local lines share
// the SM's one data stage, one pass or line per cycle for the whole SM (the L1 and shared
// memory are one array: micro_shared_bandwidth, micro_l1_lines).
#pragma once

#include <cstdint>
#include <vector>

#include "core/launch_stats.hpp"
#include "engine/event_queue.hpp"
#include "exec/executor.hpp"
#include "memory/banks.hpp"
#include "memory/memory_system.hpp"

namespace gpusim::core {

class LoadStoreUnit {
 public:
  LoadStoreUnit(uint32_t sm, const memory::SharedAccessConfig& shared, memory::MemorySystem& memory)
      : sm_(sm), shared_(shared), memory_(memory) {}

  // The first cycle from `now` at which a global or local access can be handed over.
  engine::Cycle accepts_at(engine::Cycle now) const {
    return memory_.may_refuse() ? memory_.accepts_at(sm_, now) : now;
  }

  struct Access {
    engine::Cycle ready = 0;  // when the loaded data can be read; kNever: when the response comes
    uint32_t ticket = 0;      // for the scoreboard (Scoreboard::kMemoryKnown, kOperand or a load's own)
    uint64_t busy_ticks = 0;  // load/store pipeline time it takes, in 1/kUnitTicks cycles
  };
  // Starts the memory access of an executed instruction of the warp in `slot`.
  Access access(const exec::StepResult& r, uint32_t slot, engine::Cycle now, SmStats& stats);

  // The warp slot and ticket a response's tag names.
  static uint32_t slot_of(uint64_t tag) { return static_cast<uint32_t>(tag); }
  static uint32_t ticket_of(uint64_t tag) { return static_cast<uint32_t>(tag >> 32); }

 private:
  uint32_t sm_;
  memory::SharedAccessConfig shared_;
  memory::MemorySystem& memory_;
  engine::Cycle data_free_ = 0;  // when the data stage takes the next pass or line
  // Per warp slot: when its next shared access may take its first pass. A warp's shared
  // accesses go through the banks in order, and a conflicting one's passes are replay_cycles
  // apart (validate/probes/shared_order.py: a 32-way store delays the same warp's next load
  // by 41 cycles more than a conflict-free one, where other warps' passes fill the gaps).
  std::vector<engine::Cycle> warp_shared_free_;
  uint32_t next_ticket_ = 0;
};

}  // namespace gpusim::core
