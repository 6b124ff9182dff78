// The GPU: the engine's clock and event queue, the memory system (a plug-in, built by the
// name the architecture gives), and per launch the SMs and the block dispatcher. One
// clock runs across all launches of a workload, so what the caches hold carries over
// from one kernel to the next at the right times; the L1s are invalidated at each kernel
// start as on hardware (they are not coherent) and the L2 keeps its contents.
#pragma once

#include <cstdint>
#include <memory>

#include "arch/arch_config.hpp"
#include "core/launch_stats.hpp"
#include "core/wave_sampler.hpp"
#include "engine/event_queue.hpp"
#include "exec/device_memory.hpp"
#include "exec/executor.hpp"
#include "exec/run_limits.hpp"
#include "kernel/ir.hpp"
#include "memory/memory_system.hpp"

namespace gpusim::core {

struct TimingOptions {
  bool allow_jumps = true;   // false: tick every SM with warps every cycle (for tests)
  bool trace_warps = false;  // record per-warp slices for the trace
  bool profile = false;      // per-instruction counters for the source view (slower)
  bool sample_counters = false;  // GPU-wide counters over time, for the trace's counter tracks
  SampleRule sample;             // --sample: time a part of a large grid, extrapolate the rest (core/wave_sampler.hpp)
  exec::RunLimits limits;     // per-launch instruction budget, wall-clock deadline (once started)
  int threads = 1;            // --threads: SMs' cycles side by side (core/tick_batch.hpp); the same report
  int64_t quantum = 0;        // --quantum: most cycles SMs run ahead of each other (0: the most exact; 1: none)
};

class Gpu {
 public:
  // Builds the memory system the architecture names (memory.model).
  explicit Gpu(const arch::ArchConfig& arch);
  // With a memory system of the caller's (for tests); `make` gets the engine and SM count.
  using MemoryFactory = std::function<std::unique_ptr<memory::MemorySystem>(const memory::MemorySystemContext&)>;
  Gpu(const arch::ArchConfig& arch, const MemoryFactory& make);

  // Simulates one launch starting at cycle `start` (no earlier than the end of the last
  // one). Throws util::InputError when no block fits an SM and exec::ExecError on a
  // fault, a barrier deadlock or a runaway launch.
  LaunchStats launch(const kernel::Program& program, exec::DeviceMemory& memory, const exec::LaunchConfig& launch,
                     int registers_per_thread, engine::Cycle start, const TimingOptions& options);

  engine::EventQueue& events() { return events_; }
  memory::MemorySystem& memory() { return *memory_; }

 private:
  arch::ArchConfig arch_;
  engine::EventQueue events_;  // before everything that schedules events on it
  std::unique_ptr<memory::MemorySystem> memory_;
};

// One launch on a fresh GPU at cycle 0 (hand-worked tests, micro checks).
LaunchStats simulate_launch(const arch::ArchConfig& arch, const kernel::Program& program, exec::DeviceMemory& memory,
                            const exec::LaunchConfig& launch, int registers_per_thread, const TimingOptions& options);

}  // namespace gpusim::core
