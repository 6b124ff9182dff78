// Runs a kernel launch functionally: blocks one after another, each block's warps in
// turn until they exit or wait at a barrier; barriers release when every live warp
// (or the count given) has arrived. Detects deadlock and runaway loops.
#pragma once

#include <cstdint>

#include "exec/device_memory.hpp"
#include "exec/executor.hpp"
#include "exec/run_limits.hpp"
#include "kernel/ir.hpp"

namespace gpusim::exec {

struct FunctionalStats {
  uint64_t warp_instructions = 0;
  uint64_t thread_instructions = 0;  // active lanes summed over warp instructions
  uint64_t predicated_on_threads = 0;  // of those, lanes whose guard predicate held
};

// Throws ExecError on a fault, a barrier deadlock, or past the run's limits (naming the
// kernel, the block and the PC of a warp still running).
// Runs the launch's blocks from `first_block` on (0: all of them).
FunctionalStats run_functional(const kernel::Program& program, DeviceMemory& memory, const LaunchConfig& launch,
                               const RunLimits& limits, uint64_t first_block = 0);

}  // namespace gpusim::exec
