#include "driver/timing_run.hpp"

#include <chrono>
#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "driver/workload_session.hpp"
#include "memory/hierarchy.hpp"

namespace gpusim::driver {

TimingRun run_timed(const arch::ArchConfig& arch, const workload::Workload& w, const kernel::Module& module,
                    const kernel::Program& program, int registers_per_thread, const core::TimingOptions& options) {
  TimingRun run;
  WorkloadSession session(w, module, program);
  // The timeline: when each stream, the GPU and each copy engine is next free.
  std::map<int, uint64_t> stream_ready;
  uint64_t gpu_free = 0, sync_point = 0, all_done = 0;
  std::vector<uint64_t> engine_free(static_cast<size_t>(std::max(1, arch.host_link.copy_engines)), 0);
  const auto place = [&](int stream, uint64_t& resource, uint64_t duration, bool synchronous) {
    uint64_t start = std::max({stream_ready[stream], resource, sync_point});
    if (synchronous) start = std::max(start, all_done);  // waits for everything before it
    const uint64_t end = start + duration;
    resource = end;
    stream_ready[stream] = end;
    all_done = std::max(all_done, end);
    if (synchronous) sync_point = end;
    return std::pair{start, end};
  };
  memory::MemoryHierarchy memory_model(arch);  // caches stay warm from one launch to the next
  session.run(
      [&](const workload::Step& step, const workload::LaunchStep& launch, const exec::LaunchConfig& config) {
        const auto start = std::chrono::steady_clock::now();
        TimedLaunch t{program.name, launch.grid, launch.block, launch.shared_bytes, registers_per_thread,
                      core::simulate_launch(arch, program, session.memory(), config, registers_per_thread, memory_model,
                                            options)};
        run.wall_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        t.stream = step.stream;
        std::tie(t.start, t.end) = place(step.stream, gpu_free, t.stats.cycles, false);
        run.launches.push_back(std::move(t));
      },
      [&](const workload::Step& step, const workload::CopyStep& copy, uint64_t bytes) {
        const bool pinned = w.find_buffer(copy.buffer)->pinned;
        const double bandwidth = pinned ? arch.host_link.bandwidth_gbs : arch.host_link.pageable_bandwidth_gbs;
        const double seconds = arch.host_link.latency_us * 1e-6 + static_cast<double>(bytes) / (bandwidth * 1e9);
        TimedCopy c{copy.buffer, copy.to_device, bytes, static_cast<uint64_t>(std::llround(seconds * arch.gpu.core_clock_mhz * 1e6)),
                    pinned, step.stream};
        const int engines = arch.host_link.copy_engines;
        uint64_t& resource = engines == 0 ? gpu_free : engine_free[engines == 1 || copy.to_device ? 0 : 1];
        std::tie(c.start, c.end) = place(step.stream, resource, c.cycles, !pinned);
        run.copies.push_back(c);
      });
  run.makespan = all_done;
  run.check = session.check();
  return run;
}

}  // namespace gpusim::driver
