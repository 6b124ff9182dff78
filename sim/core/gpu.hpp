// The GPU and its discrete-event engine: a global block scheduler hands blocks to SMs
// round-robin as their resources allow; each SM is ticked cycle by cycle while it can
// issue and otherwise sleeps until the cycle its next warp becomes ready, so idle
// stretches cost nothing. Results never depend on whether a jump happened.
#pragma once

#include <cstdint>

#include "arch/arch_config.hpp"
#include "core/launch_stats.hpp"
#include "exec/device_memory.hpp"
#include "exec/executor.hpp"
#include "kernel/ir.hpp"
#include "memory/memory_model.hpp"

namespace gpusim::core {

struct TimingOptions {
  bool allow_jumps = true;     // false: tick every SM with warps every cycle (for tests)
  bool trace_warps = false;    // record per-warp slices for the trace
  uint64_t max_warp_instructions = 2'000'000'000;
};

// Simulates one kernel launch; throws util::InputError when no block fits an SM and
// exec::ExecError on a fault, a barrier deadlock or a runaway launch.
LaunchStats simulate_launch(const arch::ArchConfig& arch, const kernel::Program& program, exec::DeviceMemory& memory,
                            const exec::LaunchConfig& launch, int registers_per_thread, memory::MemoryModel& memory_model,
                            const TimingOptions& options);

}  // namespace gpusim::core
