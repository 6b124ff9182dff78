#include "driver/timing_run.hpp"

#include <chrono>

#include "driver/workload_session.hpp"
#include "host/copy_timeline.hpp"
#include "util/host_memory.hpp"

namespace gpusim::driver {

TimingRun run_timed(const arch::ArchConfig& arch, const workload::Workload& w, const Modules& modules,
                    const std::function<int(const std::string& entry)>& registers_of, const core::TimingOptions& options) {
  TimingRun run;
  core::TimingOptions started = options;
  started.limits.start();
  WorkloadSession session(w, modules, &arch, options.threads);
  host::CopyTimeline timeline(arch.host_link, arch.gpu.core_clock_mhz);
  {  // the GPU (its caches) goes before the check needs memory
    core::Gpu gpu(arch);  // one clock for every launch: caches carry over at the right times
    session.run(
        [&](const workload::Step& step, const workload::LaunchStep& launch, const kernel::Program& program,
            const exec::LaunchConfig& config) {
          const int registers_per_thread = registers_of(program.name);
          const auto wall = std::chrono::steady_clock::now();
          const engine::Cycle start = timeline.kernel_start(step.stream);
          exec::PrintfSink printf;
          exec::LaunchConfig with_printf = config;
          with_printf.printf_sink = &printf;
          TimedLaunch t;
          if (options.limits.continue_out_of_bounds) with_printf.out_of_bounds = &t.out_of_bounds;
          t.name = program.name;
          t.grid = launch.grid;
          t.block = launch.block;
          t.shared_bytes = launch.shared_bytes;
          t.registers = registers_per_thread;
          t.stats = gpu.launch(program, session.memory(), with_printf, registers_per_thread, start, started);
          t.printf = std::move(printf);
          run.wall_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - wall).count();
          t.stream = step.stream;
          t.start = start;
          t.end = start + t.stats.cycles;
          timeline.kernel_done(step.stream, t.end);
          run.launches.push_back(std::move(t));
        },
        [&](const workload::Step& step, const workload::CopyStep& copy, uint64_t bytes) {
          const bool pinned = w.find_buffer(copy.buffer)->pinned;
          const host::CopyTimeline::Slot slot = timeline.copy(step.stream, copy.to_device, bytes, pinned);
          run.copies.push_back({copy.buffer, copy.to_device, bytes, timeline.copy_cycles(bytes, pinned, copy.to_device),
                                pinned, step.stream, slot.start, slot.end, slot.engine});
        });
  }
  run.makespan = timeline.makespan();
  // The launches' warp and SM state (tens of MB in small blocks) is freed by now; the check
  // may make every buffer's initial contents again. Return it first, so the peak is the
  // simulation's, not both (docs/performance.md: peak memory).
  util::give_back_free_memory();
  run.check = session.check();
  return run;
}

}  // namespace gpusim::driver
