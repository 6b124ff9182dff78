// Runs a workload through the timing model: every launch simulated on the GPU (and
// executed functionally at issue, so the check still applies), copies charged over the
// host link.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "arch/arch_config.hpp"
#include "core/gpu.hpp"
#include "core/launch_stats.hpp"
#include "kernel/ir.hpp"
#include "reference/references.hpp"
#include "workload/workload.hpp"

namespace gpusim::driver {

struct TimedLaunch {
  std::string name;
  std::array<int64_t, 3> grid{}, block{};
  int64_t shared_bytes = 0;
  int registers = 0;
  core::LaunchStats stats;
};

struct TimedCopy {
  std::string buffer;
  bool to_device = true;
  uint64_t bytes = 0;
  uint64_t cycles = 0;  // host-link latency plus bytes over bandwidth, at the core clock
};

struct TimingRun {
  std::vector<TimedLaunch> launches;
  std::vector<TimedCopy> copies;
  std::optional<reference::CheckResult> check;
  double wall_seconds = 0;  // host time spent simulating the launches
};

TimingRun run_timed(const arch::ArchConfig& arch, const workload::Workload& w, const kernel::Module& module,
                    const kernel::Program& program, int registers_per_thread, const core::TimingOptions& options);

}  // namespace gpusim::driver
