#include "core/launch_stats.hpp"

namespace gpusim::core {

const char* stall_name(Stall s) {
  switch (s) {
    case Stall::Idle: return "idle";
    case Stall::BlockLaunch: return "block_launch";
    case Stall::Dependency: return "dependency";
    case Stall::Memory: return "memory";
    case Stall::Barrier: return "barrier";
    case Stall::ExecutionUnitBusy: return "execution_unit_busy";
    case Stall::Count: break;
  }
  return "?";
}

SmStats LaunchStats::total() const {
  SmStats t;
  for (const SmStats& s : per_sm) {
    t.warp_instructions += s.warp_instructions;
    t.thread_instructions += s.thread_instructions;
    t.issue_cycles += s.issue_cycles;
    t.active_cycles += s.active_cycles;
    t.warp_cycles += s.warp_cycles;
    t.blocks += s.blocks;
    for (int i = 0; i < kStallCount; ++i) t.stalls[i] += s.stalls[i];
  }
  return t;
}

}  // namespace gpusim::core
