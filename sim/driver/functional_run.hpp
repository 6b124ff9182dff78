// Runs a workload functionally: buffers into a device memory image, copy and launch
// steps in order (each launch executed warp by warp), then the workload's check.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "arch/arch_config.hpp"
#include "driver/workload_session.hpp"
#include "exec/block_runner.hpp"
#include "exec/device_memory.hpp"
#include "exec/run_limits.hpp"
#include "frontend/kernel_loader.hpp"
#include "reference/references.hpp"
#include "workload/workload.hpp"

namespace gpusim::driver {

struct LaunchRecord {
  std::string name;
  std::array<int64_t, 3> grid{}, block{};
  exec::FunctionalStats stats;
  exec::PrintfSink printf;
  exec::OutOfBoundsLog out_of_bounds;  // with --out-of-bounds continue
};

struct FunctionalRun {
  std::vector<LaunchRecord> launches;
  std::optional<reference::CheckResult> check;
  reference::Buffers host;  // host copies of every buffer after the last step
  double seconds = 0;       // wall time of the launches
};

// With `arch`, launches are checked against its limits first. Blocks run on `threads` threads
// where the kernel allows (exec::run_functional); the result is the same.
FunctionalRun run_functional(const workload::Workload& w, const Modules& modules, exec::RunLimits limits = {},
                             const arch::ArchConfig* arch = nullptr, int threads = 1);

}  // namespace gpusim::driver
