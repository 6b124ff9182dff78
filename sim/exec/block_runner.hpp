// Runs a kernel launch functionally: blocks one after another, each block's warps in
// turn until they exit or wait at a barrier; barriers release when every live warp
// (or the count given) has arrived. Detects deadlock and runaway loops.
#pragma once

#include <cstdint>

#include "exec/device_memory.hpp"
#include "exec/executor.hpp"
#include "kernel/ir.hpp"

namespace gpusim::exec {

struct FunctionalStats {
  uint64_t warp_instructions = 0;
  uint64_t thread_instructions = 0;  // active lanes summed over warp instructions
};

// Throws ExecError on a fault, a barrier deadlock, or more than `max_warp_instructions`.
FunctionalStats run_functional(const kernel::Program& program, DeviceMemory& memory, const LaunchConfig& launch,
                               uint64_t max_warp_instructions);

}  // namespace gpusim::exec
