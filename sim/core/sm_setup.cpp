// The SM's making: its configuration from the architecture file, its warp slots, schedulers
// and policies, and its link to the memory system.
#include "arch/arch_config.hpp"
#include "core/sm.hpp"

namespace gpusim::core {

SmConfig SmConfig::from(const arch::ArchConfig& arch) {
  SmConfig c;
  c.max_warps = arch.limits.max_warps_per_sm;
  c.max_blocks = arch.limits.max_blocks_per_sm;
  c.schedulers = arch.scheduling.warp_schedulers_per_sm;
  c.issue_width = arch.scheduling.issue_width;
  c.policy = arch.scheduling.policy;
  c.shared = arch.shared_memory.access;
  c.barrier_latency = arch.latencies.barrier;
  c.barrier_per_warp = arch.latencies.barrier_per_warp;
  c.taken_branch = arch.latencies.taken_branch;
  c.cycles_per_ns = arch.gpu.core_clock_mhz / 1000.0;
  c.hoist_trips = arch.scheduling.ptxas_unroll;
  c.hoist_loads = arch.scheduling.ptxas_hoist_loads;
  c.block_release = arch.block_scheduler.block_release_cycles;
  return c;
}

Sm::Sm(uint32_t id, const SmConfig& config, engine::EventQueue& events, memory::MemorySystem& memory,
       const KernelContext& kernel, BlockSink& dispatcher)
    : id_(id),
      executor_(&kernel.executor),
      last_tick_(events.now()),
      warps_(static_cast<size_t>(config.max_warps)),
      gates_(static_cast<size_t>(config.max_warps)),
      blocks_(static_cast<size_t>(config.max_blocks)),
      schedulers_(static_cast<size_t>(config.schedulers)),
      scheduler_of_(static_cast<size_t>(config.max_warps)),
      live_index_(static_cast<size_t>(config.max_warps), kNotLive),
      kernel_(kernel),
      memory_(memory),
      config_(config),
      lsu_(id, config.shared, memory),
      events_(events),
      dispatcher_(dispatcher),
      tick_event_(this, engine::priority::kSmTick + static_cast<int32_t>(id)),
      release_event_(this, engine::priority::kSmRelease + static_cast<int32_t>(id)) {
  // Slot i belongs to scheduler i % schedulers: each has at most this many.
  const size_t per_scheduler = (warps_.size() + schedulers_.size() - 1) / schedulers_.size();
  live_storage_.resize(per_scheduler * schedulers_.size());
  known_waits_.resize(per_scheduler * schedulers_.size());
  for (size_t i = 0; i < schedulers_.size(); ++i) {
    schedulers_[i].policy = SchedulerPolicyRegistry::instance().make(config.policy);
    Scheduler& s = schedulers_[i];
    s.live.attach(live_storage_.data() + i * per_scheduler, known_waits_.data() + i * per_scheduler);
    s.scan.emplace(static_cast<Issuer&>(*this), gates_.data(), std::span<const uint32_t>{s.live.begin(), per_scheduler}, s.units, s.last_pos,
                   s.last_issued, engine::Cycle{0}, &s.parked, s.live.known_waits());
  }
  for (size_t slot = 0; slot < scheduler_of_.size(); ++slot) scheduler_of_[slot] = static_cast<uint32_t>(slot % schedulers_.size());
  if (kernel.profile) profile_ = InstructionProfile::for_program(kernel.program);
  memory_.connect(id_, this);
}

Sm::~Sm() { memory_.connect(id_, nullptr); }

}  // namespace gpusim::core
