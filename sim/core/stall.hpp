// Stall reasons and warp states, in Nsight Compute's vocabulary.
#pragma once

#include <cstdint>

namespace gpusim::core {

// Why a scheduler did not issue in a cycle; each such cycle is charged to exactly one.
// Names follow Nsight Compute's warp states (smsp__pcsamp_warps_issue_stalled_*) where the
// model has the cause; `idle` and `block_launch` have no Nsight counterpart.
enum class Stall : uint8_t {
  Idle,              // no warp resident on this scheduler
  BlockLaunch,       // warps assigned but their block is still launching
  Wait,              // the next instruction waits for a fixed-latency (arithmetic) result
  LongScoreboard,    // it waits for a global or local load (L1TEX)
  ShortScoreboard,   // it waits for shared memory or the constant cache (MIO)
  Barrier,           // the warp waits at bar.sync, or for the barrier's release
  MathPipeThrottle,  // its arithmetic unit is still busy with an earlier warp instruction
  MioThrottle,       // the load/store unit is busy with shared-memory or constant accesses
  LgThrottle,        // the load/store unit is busy with global accesses, or every L1 miss register is held
  DispatchStall,     // the issue slot is held by an instruction SASS expands into several
  Sleeping,          // the warp sleeps (nanosleep)
  BranchResolving,   // after a taken branch, its target is not yet fetched
  Count
};
constexpr int kStallCount = static_cast<int>(Stall::Count);
const char* stall_name(Stall s);
const char* stall_description(Stall s);

// A warp's state in one cycle (the source view's per-warp accounting): a stall reason, or
// issued (selected), or ready while another warp issued (not selected).
constexpr int kSelected = kStallCount;
constexpr int kNotSelected = kStallCount + 1;
constexpr int kWarpStateCount = kStallCount + 2;
const char* warp_state_name(int state);

}  // namespace gpusim::core
