#include "core/load_store_unit.hpp"

#include <algorithm>

#include "core/scoreboard.hpp"

namespace gpusim::core {

LoadStoreUnit::Access LoadStoreUnit::access(const exec::StepResult& r, uint32_t slot, engine::Cycle now, SmStats& stats) {
  using kernel::Opcode;
  using kernel::StateSpace;
  Access a;
  a.ticket = Scoreboard::kMemoryKnown;
  const bool atomic = r.instruction->op == Opcode::Atom || r.instruction->op == Opcode::Red;
  switch (r.memory_space) {
    case StateSpace::Shared: {
      const int passes =
          memory::shared_passes(r.addresses, r.executed_mask, r.access_bytes, shared_, atomic, r.half_stride);
      ++stats.shared_requests;
      stats.shared_passes += static_cast<uint64_t>(passes);
      stats.l1_wavefronts += static_cast<uint64_t>(passes);
      // Each extra pass replays the access replay_cycles later; the banks still take one
      // pass per cycle from the other warps (micro_shared_conflicts vs micro_shared_bandwidth).
      if (slot >= warp_shared_free_.size()) warp_shared_free_.resize(slot + 1, 0);
      const engine::Cycle start = std::max({now, data_free_, warp_shared_free_[slot]});
      const auto replays = static_cast<engine::Cycle>((passes - 1) * shared_.replay_cycles);
      data_free_ = start + static_cast<engine::Cycle>(passes);
      warp_shared_free_[slot] = start + replays + 1;
      a.ready = start + static_cast<engine::Cycle>(shared_.latency) + replays;
      return a;
    }
    case StateSpace::Param:
    case StateSpace::Const:  // the constant cache: as fast as shared memory
      a.ticket = Scoreboard::kOperand;
      a.ready = now + static_cast<engine::Cycle>(shared_.latency);
      a.busy_ticks = kUnitTicks;
      return a;
    default: break;
  }
  memory::MemoryRequest req;
  req.space = r.memory_space;
  req.is_store = r.instruction->op == Opcode::St || r.instruction->op == Opcode::Red;
  req.is_atomic = atomic;
  req.float_atomic = atomic && kernel::is_float(r.instruction->type);
  req.cache_op = r.instruction->cache_op;
  req.mask = r.executed_mask;
  req.bytes_per_lane = r.access_bytes;
  req.addresses = r.addresses;
  req.lanes_one_run = r.one_run;  // ld/st: the executor's, from the addresses it formed
  req.sm = sm_;
  req.cycle = now;
  if (++next_ticket_ < Scoreboard::kFirstLoad) next_ticket_ = Scoreboard::kFirstLoad;  // (after wrapping)
  a.ticket = next_ticket_;
  req.tag = uint64_t{a.ticket} << 32 | slot;
  req.not_before = std::max(now, data_free_);  // behind the lines and passes before it
  const memory::Accepted taken = memory_.send(req);
  data_free_ = req.not_before + taken.busy_cycles;
  stats.l1_wavefronts += taken.wavefronts;
  a.ready = req.is_store ? now : engine::kNever;  // a store writes no register
  return a;
}

}  // namespace gpusim::core
