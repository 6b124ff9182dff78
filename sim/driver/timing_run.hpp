// Runs a workload through the timing model: every launch simulated on one GPU with one
// clock (and executed functionally at issue, so the check still applies), copies placed
// on the host timeline (host/copy_timeline.hpp) with the kernels.
#pragma once

#include <array>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "arch/arch_config.hpp"
#include "driver/workload_session.hpp"
#include "core/gpu.hpp"
#include "core/launch_stats.hpp"
#include "exec/executor.hpp"
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
  int stream = 0;
  uint64_t start = 0, end = 0;  // on the workload's timeline, in cycles
  exec::PrintfSink printf;
  exec::OutOfBoundsLog out_of_bounds;  // with --out-of-bounds continue
};

struct TimedCopy {
  std::string buffer;
  bool to_device = true;
  uint64_t bytes = 0;
  uint64_t cycles = 0;  // host-link latency plus bytes over bandwidth, at the core clock
  bool pinned = false;
  int stream = 0;
  uint64_t start = 0, end = 0;
  int engine = -1;  // the copy engine; -1: none (shares the GPU)
};

struct TimingRun {
  std::vector<TimedLaunch> launches;
  std::vector<TimedCopy> copies;
  std::optional<reference::CheckResult> check;
  double wall_seconds = 0;  // host time spent simulating the launches
  uint64_t makespan = 0;    // end of the last step: copies and kernels overlap across streams
};

// `registers_of(entry)` gives each launched kernel's registers per thread.
TimingRun run_timed(const arch::ArchConfig& arch, const workload::Workload& w, const Modules& modules,
                    const std::function<int(const std::string& entry)>& registers_of, const core::TimingOptions& options);

}  // namespace gpusim::driver
