#include "core/gpu.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <queue>

#include "arch/occupancy.hpp"
#include "core/ptxas_schedule.hpp"
#include "core/sm.hpp"
#include "util/yaml_reader.hpp"

namespace gpusim::core {

LaunchStats simulate_launch(const arch::ArchConfig& arch, const kernel::Program& ptx, exec::DeviceMemory& memory,
                            const exec::LaunchConfig& launch, int registers_per_thread, memory::MemoryModel& memory_model,
                            const TimingOptions& options) {
  // Issue order as ptxas would emit it, where the architecture says so (core/ptxas_schedule.hpp).
  const kernel::Program reordered =
      arch.scheduling.sass_like ? schedule_like_ptxas(ptx, classify_program(ptx, arch)) : kernel::Program{};
  const kernel::Program& program = arch.scheduling.sass_like ? reordered : ptx;
  const int64_t shared = int64_t{program.static_shared_bytes} + launch.dynamic_shared_bytes;
  const arch::OccupancyResult occ = arch::compute_occupancy(
      arch, {static_cast<int>(launch.threads_per_block()), registers_per_thread, shared});
  if (occ.active_blocks == 0)
    throw util::InputError("launch of " + program.name + " cannot run on " + arch.gpu.name + ": " + occ.none_fit_reason);

  const std::vector<InstructionTiming> timing = classify_program(program, arch);
  const memory::MemoryStats memory_before = memory_model.stats();
  memory_model.start_kernel();
  exec::Executor executor(program, memory, launch);
  std::vector<std::unique_ptr<Sm>> sms;
  for (int i = 0; i < arch.gpu.sm_count; ++i) {
    sms.push_back(std::make_unique<Sm>(static_cast<uint32_t>(i), arch, program, timing, executor, memory_model,
                                       options.trace_warps));
    sms.back()->set_block_capacity(occ.active_blocks);
  }

  using Event = std::pair<uint64_t, uint32_t>;  // (cycle, SM)
  std::priority_queue<Event, std::vector<Event>, std::greater<>> queue;
  std::vector<uint64_t> scheduled(sms.size(), kNever);
  const auto schedule = [&](uint32_t sm, uint64_t cycle) {
    if (cycle >= scheduled[sm]) return;
    scheduled[sm] = cycle;
    queue.push({cycle, sm});
  };

  // Global block scheduler: round-robin over the SM order, as far as resources allow.
  const uint64_t total_blocks = launch.block_count();
  uint64_t next_block = 0;
  size_t cursor = 0;
  const auto& order = arch.block_scheduler.sm_order;
  double next_dispatch = 0;  // the GPU-wide dispatcher hands out one block per interval
  const auto assign = [&](uint64_t now) {
    while (next_block < total_blocks) {
      size_t tried = 0;
      while (tried < order.size() && !sms[static_cast<size_t>(order[cursor])]->can_accept()) {
        cursor = (cursor + 1) % order.size();
        ++tried;
      }
      if (tried == order.size()) return;
      const uint32_t sm = static_cast<uint32_t>(order[cursor]);
      const double dispatched = std::max(static_cast<double>(now), next_dispatch);
      next_dispatch = dispatched + arch.block_scheduler.block_dispatch_interval;
      const uint64_t eligible = static_cast<uint64_t>(std::ceil(dispatched)) +
                                static_cast<uint64_t>(arch.block_scheduler.block_launch_cycles);
      sms[sm]->launch_block(next_block++, now, eligible);
      schedule(sm, now);
      cursor = (cursor + 1) % order.size();
    }
  };
  assign(static_cast<uint64_t>(arch.block_scheduler.kernel_launch_cycles));

  uint64_t instructions = 0;
  while (!queue.empty()) {
    const auto [now, sm] = queue.top();
    queue.pop();
    if (scheduled[sm] != now) continue;  // superseded by an earlier event
    scheduled[sm] = kNever;
    Sm& s = *sms[sm];
    const uint64_t before = s.instructions();
    uint64_t next = s.tick(now);
    instructions += s.instructions() - before;
    if (instructions > options.max_warp_instructions)
      throw exec::ExecError("kernel " + program.name + ": more than " + std::to_string(options.max_warp_instructions) +
                            " warp instructions in this launch: an endless loop? (raise the limit with --max-instructions)");
    if (s.take_retired() > 0) assign(now + 1);
    if (!options.allow_jumps && s.has_warps()) next = now + 1;
    if (next != kNever) schedule(sm, next);
  }

  std::string stuck;
  for (const auto& s : sms) {
    const std::string d = s->describe_stuck();
    if (!d.empty()) stuck.append(stuck.empty() ? "" : ", ").append(d);
  }
  if (!stuck.empty() || next_block < total_blocks)
    throw exec::ExecError("kernel " + program.name + ": barrier deadlock: " + (stuck.empty() ? "blocks left unscheduled" : stuck));

  LaunchStats stats;
  for (const auto& s : sms) stats.cycles = std::max(stats.cycles, s->stats().busy_until);
  stats.cycles = std::max(stats.cycles, memory_model.drained_at());  // the kernel ends when its writes land
  uint64_t first_idle = stats.cycles;
  for (const auto& s : sms) {
    s->finish(stats.cycles);
    stats.per_sm.push_back(s->stats());
    first_idle = std::min(first_idle, s->stats().busy_until);
    auto& bt = s->block_trace();
    stats.blocks_trace.insert(stats.blocks_trace.end(), bt.begin(), bt.end());
    auto& wt = s->warp_trace();
    stats.warps_trace.insert(stats.warps_trace.end(), wt.begin(), wt.end());
  }
  stats.memory = memory_model.stats() - memory_before;
  stats.blocks = total_blocks;
  stats.blocks_per_sm = occ.active_blocks;
  stats.theoretical_occupancy = occ.occupancy;
  stats.schedulers_per_sm = arch.scheduling.warp_schedulers_per_sm;
  stats.issue_width = arch.scheduling.issue_width;
  stats.max_warps_per_sm = arch.limits.max_warps_per_sm;
  stats.tail_cycles = stats.cycles - first_idle;
  return stats;
}

}  // namespace gpusim::core
