// Runs a kernel launch functionally: blocks one after another (or side by side, with the
// same result), each block's warps in turn until they exit or wait at a barrier; barriers
// release when every live warp (or the count given) has arrived. Detects deadlock and
// runaway loops.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

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
// Runs the launch's blocks from `first_block` on (0: all of them), on `threads` threads when
// the kernel allows it (see run_blocks_side_by_side); the result is the same either way.
FunctionalStats run_functional(const kernel::Program& program, DeviceMemory& memory, const LaunchConfig& launch,
                               const RunLimits& limits, uint64_t first_block = 0, int threads = 1);

// Runs block `block` (linear index) to its end on `ex` with `warps` (one per warp of a block),
// counting into `stats`: its count so far is the clock and, against `limits`, the budget.
void run_block(Executor& ex, std::vector<WarpState>& warps, uint64_t block, const RunLimits& limits,
               FunctionalStats& stats);

// Blocks side by side, in rounds: each block of a round runs on memory as the round found it,
// its stores logged and its loads' ranges noted; then, in block order, each block's stores
// are applied, unless it read something a block before it in the round wrote (or failed, or
// went past the budget), when it runs again there, on memory as the blocks before it left it.
// So every block runs as it would one after another, and the memory, the counts and any
// error are the same as on one thread.
FunctionalStats run_blocks_side_by_side(const kernel::Program& program, DeviceMemory& memory,
                                        const LaunchConfig& launch, const RunLimits& limits, uint64_t first_block,
                                        int threads);
// Why a kernel's blocks must run one after another, or empty: what one block does that
// another sees other than through memory (atomics, printf's order, the clock, which counts
// the instructions run before it; --out-of-bounds continue's log).
std::string side_by_side_refused(const kernel::Program& program, const LaunchConfig& launch);

}  // namespace gpusim::exec
