#include "driver/timing_run.hpp"

#include <chrono>
#include <cmath>

#include "driver/workload_session.hpp"
#include "memory/hierarchy.hpp"

namespace gpusim::driver {

TimingRun run_timed(const arch::ArchConfig& arch, const workload::Workload& w, const kernel::Module& module,
                    const kernel::Program& program, int registers_per_thread, const core::TimingOptions& options) {
  TimingRun run;
  WorkloadSession session(w, module, program);
  memory::MemoryHierarchy memory_model(arch);  // caches stay warm from one launch to the next
  session.run(
      [&](const workload::Step&, const workload::LaunchStep& launch, const exec::LaunchConfig& config) {
        const auto start = std::chrono::steady_clock::now();
        TimedLaunch t{program.name, launch.grid, launch.block, launch.shared_bytes, registers_per_thread,
                      core::simulate_launch(arch, program, session.memory(), config, registers_per_thread, memory_model,
                                            options)};
        run.wall_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        run.launches.push_back(std::move(t));
      },
      [&](const workload::Step&, const workload::CopyStep& copy, uint64_t bytes) {
        const double seconds = arch.host_link.latency_us * 1e-6 + static_cast<double>(bytes) / (arch.host_link.bandwidth_gbs * 1e9);
        run.copies.push_back({copy.buffer, copy.to_device, bytes,
                              static_cast<uint64_t>(std::llround(seconds * arch.gpu.core_clock_mhz * 1e6))});
      });
  run.check = session.check();
  return run;
}

}  // namespace gpusim::driver
