#include "core/launch_stats.hpp"

#include <array>

namespace gpusim::core {

const char* stall_name(Stall s) {
  switch (s) {
    case Stall::Idle: return "idle";
    case Stall::BlockLaunch: return "block_launch";
    case Stall::Dependency: return "dependency";
    case Stall::Memory: return "memory";
    case Stall::Barrier: return "barrier";
    case Stall::ExecutionUnitBusy: return "execution_unit_busy";
    case Stall::MshrFull: return "mshr_full";
    case Stall::Sleeping: return "sleeping";
    case Stall::Count: break;
  }
  return "?";
}

const char* stall_description(Stall s) {
  switch (s) {
    case Stall::Idle: return "no warp resident on the scheduler";
    case Stall::BlockLaunch: return "warps assigned, their block still launching";
    case Stall::Dependency: return "the next instruction waits for an arithmetic result";
    case Stall::Memory: return "the next instruction waits for a load";
    case Stall::Barrier: return "the warp waits at a barrier";
    case Stall::ExecutionUnitBusy: return "the instruction's unit (or the issue slot) is still busy";
    case Stall::MshrFull: return "a global or local load waits for a free miss-status register in its L1";
    case Stall::Sleeping: return "the warp sleeps (nanosleep)";
    case Stall::Count: break;
  }
  return "?";
}

std::span<const stats::Counter<SmStats>> SmStats::counters() {
  using C = stats::Counter<SmStats>;
  static const std::array list{
      C{"warp_instructions", "", "instructions", "warp instructions issued", &SmStats::warp_instructions},
      C{"thread_instructions", "", "instructions", "active threads summed over issued warp instructions",
        &SmStats::thread_instructions},
      C{"issue_cycles", "", "scheduler cycles", "scheduler cycles in which at least one instruction issued",
        &SmStats::issue_cycles},
      C{"active_cycles", "", "cycles", "SM cycles with at least one resident warp, summed over SMs",
        &SmStats::active_cycles},
      C{"warp_cycles", "", "warp cycles", "resident warps summed over cycles and SMs", &SmStats::warp_cycles},
      C{"blocks", "", "blocks", "blocks run", &SmStats::blocks},
      C{"shared_requests", "memory", "requests", "warp accesses to shared memory", &SmStats::shared_requests},
      C{"shared_passes", "memory", "passes", "bank passes those accesses took (a conflict adds passes)",
        &SmStats::shared_passes},
  };
  return list;
}

SmStats LaunchStats::total() const {
  SmStats t;
  for (const SmStats& s : per_sm) {
    stats::add_counters(t, s, SmStats::counters());
    for (int i = 0; i < kStallCount; ++i) t.stalls[i] += s.stalls[i];
  }
  return t;
}

}  // namespace gpusim::core
