#include "core/gpu.hpp"

#include <algorithm>
#include <optional>

#include "arch/occupancy.hpp"
#include "core/block_dispatcher.hpp"
#include "core/counter_sampler.hpp"
#include "core/ptxas_predication.hpp"
#include "core/ptxas_schedule.hpp"
#include "core/sm.hpp"
#include "core/tick_batch.hpp"
#include "exec/block_runner.hpp"
#include "exec/exec_error.hpp"
#include "util/host_memory.hpp"
#include "util/parallel_for.hpp"
#include "util/yaml_reader.hpp"

namespace gpusim::core {

Gpu::Gpu(const arch::ArchConfig& arch)
    : Gpu(arch, [&](const memory::MemorySystemContext& context) {
        return memory::MemorySystemRegistry::instance().make(arch.memory.model, arch.memory, context);
      }) {}

Gpu::Gpu(const arch::ArchConfig& arch, const MemoryFactory& make)
    : arch_(arch), memory_(make({events_, arch.gpu.sm_count, arch.gpu.core_clock_mhz})) {}

// ptxas's "Used N registers" counts two the ABI reserves: nbody_direct's SASS uses R0-R29 of
// 32, uniform_stream's R0-R27 of 30 (validate/sass/).
constexpr int kReservedRegisters = 2;

namespace {

// How many cycles SMs in a batch run ahead of one another (TickBatch::set_quantum): the
// memory's lookahead, and no more than a retired block's room takes to come back
// (block_release; without one, each SM stops at a retiring cycle: Sm::retire_stops); one
// where every cycle's end matters (the trace's counter samples, SMs ticking every cycle)
// or where --quantum 1 asks for stores seen by other SMs the next cycle. (--sample's waves
// read the GPU at releases, before which a quantum ends: TickBatch::set_release_reader;
// without a release time, they read at any retiring cycle, so cycle by cycle.)
engine::Cycle quantum(const TimingOptions& options, const SmConfig& sm, const memory::MemorySystem& memory,
                      bool sampled) {
  if (options.quantum == 1 || options.sample_counters || !options.allow_jumps) return 1;
  if (sm.block_release <= 0 && sampled) return 1;
  engine::Cycle cycles = memory.lookahead();
  if (sm.block_release > 0) cycles = std::min(cycles, static_cast<engine::Cycle>(sm.block_release));
  if (options.quantum > 1) cycles = std::min<engine::Cycle>(cycles, options.quantum);
  return cycles;
}

}  // namespace

LaunchStats Gpu::launch(const kernel::Program& ptx, exec::DeviceMemory& memory, const exec::LaunchConfig& launch,
                        int registers_per_thread, engine::Cycle start, const TimingOptions& options) {
  // The instructions as ptxas would emit them, where the architecture says so: short
  // if-thens predicated (core/ptxas_predication.hpp), then each basic block in ptxas's
  // issue order (core/ptxas_schedule.hpp).
  const ClassifierConfig classes{arch_.units, arch_.latencies, arch_.warp_size, arch_.scheduling.warp_schedulers_per_sm,
                                 arch_.scheduling.sass_like, arch_.instruction_classes, arch_.scheduling.ptxas_unroll,
                                 arch_.scheduling.static_stalls};
  const auto like_ptxas = [&] {
    const int budget = arch_.scheduling.ptxas_register_bound ? registers_per_thread - kReservedRegisters : 0;
    const std::vector<InstructionTiming> ptx_timing = classify_program(ptx, classes);
    if (!arch_.scheduling.ptxas_predicate) return schedule_like_ptxas(ptx, ptx_timing, budget);
    const kernel::Program predicated = predicate_like_ptxas(ptx, ptx_timing);
    return schedule_like_ptxas(predicated, classify_program(predicated, classes), budget);
  };
  const kernel::Program reordered = arch_.scheduling.sass_like ? like_ptxas() : kernel::Program{};
  const kernel::Program& program = arch_.scheduling.sass_like ? reordered : ptx;
  const int64_t shared = int64_t{program.static_shared_bytes} + launch.dynamic_shared_bytes;
  const arch::OccupancyResult occ = arch::compute_occupancy(
      arch_, {static_cast<int>(launch.threads_per_block()), registers_per_thread, shared});
  if (occ.active_blocks == 0)
    throw util::InputError((launch.origin.empty() ? "" : launch.origin + ": ") + "launch of " + program.name + " cannot run on " + arch_.gpu.name + ": " + occ.none_fit_reason);

  const std::vector<InstructionTiming> timing = classify_program(program, classes);
  const memory::MemoryStats memory_before = memory_->stats();
  events_.advance_to(start);
  // The driver's shared carve-out: enough for the resident blocks, or the kernel's preference.
  const int64_t carveout =
      arch_.shared_memory.carveout_for(int64_t{occ.active_blocks} * occ.shared_bytes_per_block, launch.preferred_carveout);
  memory_->start_kernel(carveout, options.threads);
  exec::Executor executor(program, memory, launch);
  executor.set_ns_per_cycle(1000.0 / arch_.gpu.core_clock_mhz);
  uint64_t instructions = 0;
  const KernelContext kernel{program, timing, executor, options.trace_warps, options.profile, &instructions, &options.limits};
  BlockDispatcher dispatcher(arch_.block_scheduler, start, launch.block_count());
  const SmConfig sm_config = SmConfig::from(arch_);
  std::vector<std::unique_ptr<Sm>> sms(static_cast<size_t>(arch_.gpu.sm_count));
  // Side by side: an SM's warp slots are fresh memory, first touched here (about 0.2 ms each).
  util::parallel_for(arch_.gpu.sm_count, options.threads, 1, [&](int64_t, int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      auto sm = std::make_unique<Sm>(static_cast<uint32_t>(i), sm_config, events_, *memory_, kernel, dispatcher);
      sm->set_tick_every_cycle(!options.allow_jumps);
      sms[static_cast<size_t>(i)] = std::move(sm);
    }
  });
  dispatcher.attach(&sms, occ.active_blocks);
  // SMs tick in batches, on options.threads threads, unless they meet within a cycle.
  std::vector<std::unique_ptr<exec::Executor>> more;  // one per thread past the first
  std::optional<TickBatch> batch;
  if (TickBatch::in_order_because(program, launch, options.profile, *memory_).empty()) {
    std::vector<exec::Executor*> executors{&executor};
    for (int t = 1; t < options.threads; ++t) {
      more.push_back(std::make_unique<exec::Executor>(program, memory, launch));
      more.back()->set_ns_per_cycle(1000.0 / arch_.gpu.core_clock_mhz);
      executors.push_back(more.back().get());
    }
    batch.emplace(events_, sms, std::move(executors), instructions, options.limits, *memory_);
  }
  std::optional<WaveSampler> waves;
  const uint64_t wave_blocks = static_cast<uint64_t>(arch_.gpu.sm_count) * static_cast<uint64_t>(occ.active_blocks);
  if (options.sample.applies(launch.block_count(), wave_blocks)) {
    std::vector<memory::AddressRange> device;
    for (const exec::DeviceMemory::Region& r : memory.regions()) device.push_back({r.base, r.bytes.size()});
    waves.emplace(wave_blocks, launch.block_count(), start, sms, *memory_, device);
    dispatcher.set_sampler(&*waves);
  }
  if (batch) {
    batch->set_quantum(quantum(options, sm_config, *memory_, waves.has_value()));
    if (waves) batch->set_release_reader(&*waves);
  }
  dispatcher.start();
  std::optional<CounterSampler> sampler;
  if (options.sample_counters) sampler.emplace(start, *memory_, sms, instructions);
  if (sampler) sampler->run(events_);
  else events_.run();

  std::string stuck;
  size_t stuck_sms = 0;
  for (const auto& s : sms) {
    const std::string d = s->describe_stuck();
    if (d.empty()) continue;
    if (++stuck_sms <= 2) stuck.append(stuck.empty() ? "" : ", ").append(d);
  }
  if (stuck_sms > 2) stuck += ", and warps on " + std::to_string(stuck_sms - 2) + " more SMs";
  if (!stuck.empty() || !dispatcher.all_assigned())
    throw exec::ExecError("kernel " + program.name + ": barrier deadlock: " + (stuck.empty() ? "blocks left unscheduled" : stuck));

  const bool sampled = waves && waves->complete();
  // The kernel ends when its last block retires and its last transfers land.
  engine::Cycle end = std::max({events_.now(), memory_->drained_at(), batch ? batch->last_cycle() : 0});
  for (const auto& s : sms) end = std::max(end, s->stats().busy_until);
  LaunchStats stats;
  stats.cycles = end - start;
  uint64_t first_idle = stats.cycles, last_idle = 0;
  for (const auto& s : sms) {
    s->finish(end);
    SmStats per = s->stats();
    per.busy_until = per.busy_until ? per.busy_until - start : 0;  // relative to the launch
    first_idle = std::min(first_idle, per.busy_until);
    last_idle = std::max(last_idle, per.busy_until);
    stats.per_sm.push_back(per);
    for (BlockSlice b : s->block_trace()) {
      b.start -= start;
      b.end -= start;
      stats.blocks_trace.push_back(b);
    }
    stats.profile.add(s->profile());
    for (WarpSlice w : s->warp_trace()) {
      w.start -= start;
      w.end -= start;
      stats.warps_trace.push_back(w);
    }
  }
  stats.memory = memory_->stats() - memory_before;
  if (sampler) stats.samples = sampler->finish(stats.cycles);
  stats.blocks = launch.block_count();
  stats.blocks_per_sm = occ.active_blocks;
  stats.theoretical_occupancy = occ.occupancy;
  stats.schedulers_per_sm = arch_.scheduling.warp_schedulers_per_sm;
  stats.issue_width = arch_.scheduling.issue_width;
  stats.max_warps_per_sm = arch_.limits.max_warps_per_sm;
  // Some SMs idle while others work; the writes' drain after the last is not the grid's tail.
  stats.tail_cycles = std::max(last_idle, first_idle) - first_idle;
  stats.shared_carveout_bytes = carveout;
  stats.l1_bytes = memory_->l1_bytes();
  if (sampled) {
    // The blocks never timed run functionally, so the results are complete. The SMs' state
    // is given back first: the untimed blocks' threads would add theirs to it at the peak.
    batch.reset();
    more.clear();
    sms.clear();
    util::give_back_free_memory();
    const exec::FunctionalStats skipped =
        exec::run_functional(program, memory, launch, options.limits, dispatcher.dispatched(), options.threads);
    waves->extrapolate(stats, dispatcher.dispatched(), skipped);
  } else if (options.sample.mode != SampleMode::Exact) {
    stats.sample.declined = waves ? waves->declined() : options.sample.too_small(launch.block_count(), wave_blocks);
  }
  return stats;
}

LaunchStats simulate_launch(const arch::ArchConfig& arch, const kernel::Program& program, exec::DeviceMemory& memory,
                            const exec::LaunchConfig& launch, int registers_per_thread, const TimingOptions& options) {
  Gpu gpu(arch);
  return gpu.launch(program, memory, launch, registers_per_thread, 0, options);
}

}  // namespace gpusim::core
