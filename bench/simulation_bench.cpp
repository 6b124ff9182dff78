// Simulation speed: simulated warp instructions per second of the timing model and of
// functional execution on bundled workloads (parse and setup excluded).
// Run from the build folder: ./bench/gpusim_bench
#include <benchmark/benchmark.h>

#include <string>

#include "arch/arch_loader.hpp"
#include "driver/functional_run.hpp"
#include "driver/timing_run.hpp"
#include "frontend/kernel_loader.hpp"
#include "util/cpu_count.hpp"
#include "workload/workload.hpp"

namespace {

void functional(benchmark::State& state, const char* name) {
  const std::string root = GPUSIM_SOURCE_DIR;
  const auto arch = gpusim::arch::load_arch_config(root + "/configs/kepler.yaml");
  const auto w = gpusim::workload::load_workload(root + "/workloads/" + name + ".yaml");
  const auto k = gpusim::frontend::load_kernel(w.kernel.source, w.kernel.ptx, w.kernel.entry, arch.gpu.compute_capability);
  uint64_t warp_instructions = 0;
  double seconds = 0;
  for (auto _ : state) {
    const auto run = gpusim::driver::run_functional(w, k.module, {});
    for (const auto& l : run.launches) warp_instructions += l.stats.warp_instructions;
    seconds += run.seconds;
    if (!run.check || !run.check->passed) state.SkipWithError("check failed");
  }
  state.counters["warp_instructions"] = static_cast<double>(warp_instructions) / static_cast<double>(state.iterations());
  state.counters["warp_instr_per_s"] = seconds > 0 ? static_cast<double>(warp_instructions) / seconds : 0;
}

// The full timing model: warps scheduled cycle by cycle on every SM, instructions
// executed at issue; the SMs' cycles on `threads` threads (--threads).
void timing(benchmark::State& state, const char* arch_name, const char* name, int threads = 1) {
  const std::string root = GPUSIM_SOURCE_DIR;
  const auto arch = gpusim::arch::load_arch_config(root + "/configs/" + arch_name + ".yaml");
  const auto w = gpusim::workload::load_workload(root + "/workloads/" + name + ".yaml");
  const auto k = gpusim::frontend::load_kernel(w.kernel.source, w.kernel.ptx, w.kernel.entry, arch.gpu.compute_capability);
  const int regs = w.kernel.regs_per_thread ? *w.kernel.regs_per_thread : k.registers.value_or(32);
  uint64_t warp_instructions = 0;
  double seconds = 0;
  gpusim::core::TimingOptions options;
  options.threads = threads;
  // On fewer CPUs than threads (taskset -c N gpusim_bench pins every benchmark to one), the
  // threads would take turns: that measures the CPUs, not the simulator.
  if (const unsigned cpus = gpusim::util::usable_cpus(); cpus < static_cast<unsigned>(threads)) {
    const std::string why = std::to_string(threads) + " threads on " + std::to_string(cpus) + " CPU(s) it may use";
    state.SkipWithError(why.c_str());  // (the loop below then does not run)
  }
  for (auto _ : state) {
    const auto run = gpusim::driver::run_timed(arch, w, k.module, [regs](const std::string&) { return regs; }, options);
    for (const auto& l : run.launches) warp_instructions += l.stats.total().warp_instructions;
    seconds += run.wall_seconds;
    if (!run.check || !run.check->passed) state.SkipWithError("check failed");
  }
  if (state.iterations() == 0) return;
  state.counters["warp_instructions"] = static_cast<double>(warp_instructions) / static_cast<double>(state.iterations());
  state.counters["warp_instr_per_s"] = seconds > 0 ? static_cast<double>(warp_instructions) / seconds : 0;
}

}  // namespace

BENCHMARK_CAPTURE(timing, stencil_kepler, "kepler", "stencil")->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK_CAPTURE(timing, reduce_divergent_kepler, "kepler", "reduce_divergent")->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK_CAPTURE(timing, stencil_hopper, "hopper", "stencil")->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK_CAPTURE(timing, reduce_divergent_hopper, "hopper", "reduce_divergent")->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK_CAPTURE(timing, stencil_hopper_2_threads, "hopper", "stencil", 2)->Unit(benchmark::kMillisecond)->MinTime(2.0)->UseRealTime();
BENCHMARK_CAPTURE(timing, matmul_hopper, "hopper", "matmul")->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK_CAPTURE(timing, matmul_hopper_2_threads, "hopper", "matmul", 2)->Unit(benchmark::kMillisecond)->MinTime(2.0)->UseRealTime();
BENCHMARK_CAPTURE(functional, stencil, "stencil")->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK_CAPTURE(functional, reduce_divergent, "reduce_divergent")->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK_CAPTURE(functional, matmul, "matmul")->Unit(benchmark::kMillisecond)->MinTime(2.0);

BENCHMARK_MAIN();
