#include "core/launch_stats.hpp"

#include <array>

namespace gpusim::core {

const char* stall_name(Stall s) {
  switch (s) {
    case Stall::Idle: return "idle";
    case Stall::BlockLaunch: return "block_launch";
    case Stall::Wait: return "wait";
    case Stall::LongScoreboard: return "long_scoreboard";
    case Stall::ShortScoreboard: return "short_scoreboard";
    case Stall::Barrier: return "barrier";
    case Stall::MathPipeThrottle: return "math_pipe_throttle";
    case Stall::MioThrottle: return "mio_throttle";
    case Stall::LgThrottle: return "lg_throttle";
    case Stall::DispatchStall: return "dispatch_stall";
    case Stall::Sleeping: return "sleeping";
    case Stall::BranchResolving: return "branch_resolving";
    case Stall::Count: break;
  }
  return "?";
}

const char* stall_description(Stall s) {
  switch (s) {
    case Stall::Idle: return "no warp resident on the scheduler";
    case Stall::BlockLaunch: return "warps assigned, their block still launching";
    case Stall::Wait: return "the next instruction waits for a fixed-latency (arithmetic) result";
    case Stall::LongScoreboard: return "the next instruction waits for a global or local load";
    case Stall::ShortScoreboard: return "the next instruction waits for shared memory or the constant cache";
    case Stall::Barrier: return "the warp waits at a barrier or for its release";
    case Stall::MathPipeThrottle: return "the instruction's arithmetic unit is still busy";
    case Stall::MioThrottle: return "the load/store unit is busy (shared memory, constants)";
    case Stall::LgThrottle: return "the load/store unit is busy with global accesses, or no L1 miss register is free";
    case Stall::DispatchStall: return "the issue slot is held by an instruction SASS expands into several";
    case Stall::Sleeping: return "the warp sleeps (nanosleep)";
    case Stall::BranchResolving: return "a taken branch: the warp waits for its target's instructions";
    case Stall::Count: break;
  }
  return "?";
}

const char* warp_state_name(int state) {
  if (state == kSelected) return "selected";
  if (state == kNotSelected) return "not_selected";
  return stall_name(static_cast<Stall>(state));
}

std::span<const stats::Counter<SmStats>> SmStats::counters() {
  using C = stats::Counter<SmStats>;
  static const std::array list{
      C{"warp_instructions", "", "instructions", "warp instructions issued", &SmStats::warp_instructions},
      C{"thread_instructions", "", "instructions", "active threads summed over issued warp instructions",
        &SmStats::thread_instructions},
      C{"predicated_on_threads", "", "instructions",
        "of those threads, the ones whose guard predicate held: the lanes doing work (ptxas predicates short "
        "if-thens, so every lane issues them)",
        &SmStats::predicated_on_threads},
      C{"issue_cycles", "", "scheduler cycles", "scheduler cycles in which at least one instruction issued",
        &SmStats::issue_cycles},
      C{"dual_issues", "", "instructions",
        "instructions a warp issued in a cycle in which it had already issued one (dual issue)", &SmStats::dual_issues},
      C{"active_cycles", "", "cycles", "SM cycles with at least one resident warp, summed over SMs",
        &SmStats::active_cycles},
      C{"warp_cycles", "", "warp cycles", "resident warps summed over cycles and SMs", &SmStats::warp_cycles},
      C{"blocks", "", "blocks", "blocks run", &SmStats::blocks},
      C{"shared_requests", "memory", "requests", "warp accesses to shared memory", &SmStats::shared_requests},
      C{"shared_passes", "memory", "passes", "bank passes those accesses took (a conflict adds passes)",
        &SmStats::shared_passes},
      C{"l1_wavefronts", "memory", "cycles",
        "cycles the L1/shared data stage spent on shared-memory passes and global lines", &SmStats::l1_wavefronts},
  };
  return list;
}

SmStats LaunchStats::total() const {
  SmStats t;
  for (const SmStats& s : per_sm) {
    stats::add_counters(t, s, SmStats::counters());
    for (int i = 0; i < kStallCount; ++i) t.stalls[i] += s.stalls[i];
    for (int i = 0; i < kUnitCount; ++i) t.pipe_busy[i] += s.pipe_busy[i];
  }
  return t;
}

}  // namespace gpusim::core
