#include "core/sm.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <string>

namespace gpusim::core {

Sm::Sm(uint32_t id, const arch::ArchConfig& arch, const kernel::Program& program,
       const std::vector<InstructionTiming>& timing, exec::Executor& executor, memory::MemoryModel& memory,
       bool trace_warps)
    : id_(id),
      arch_(arch),
      program_(program),
      timing_(timing),
      executor_(executor),
      memory_(memory),
      trace_warps_(trace_warps),
      schedulers_(static_cast<uint32_t>(arch.scheduling.warp_schedulers_per_sm)) {
  warps_.resize(static_cast<size_t>(arch.limits.max_warps_per_sm));
  for (TimedWarp& w : warps_) w.done = true;
  blocks_.resize(static_cast<size_t>(arch.limits.max_blocks_per_sm));
  live_.resize(schedulers_);
  unit_free_.assign(schedulers_, {});
  issue_free_.assign(schedulers_, 0);
  last_issued_.assign(schedulers_, 0);
  last_pos_.assign(schedulers_, std::string::npos);
  reason_.assign(schedulers_, Stall::Idle);
  wake_.assign(schedulers_, 0);
}

void Sm::account(uint64_t until) {
  if (until <= last_tick_) return;
  const uint64_t span = until - last_tick_;
  for (uint32_t s = 0; s < schedulers_; ++s) stats_.stalls[static_cast<int>(reason_[s])] += span;
  stats_.warp_cycles += uint64_t{live_warps_} * span;
  if (live_warps_ > 0) stats_.active_cycles += span;
  last_tick_ = until;
}

void Sm::launch_block(uint64_t linear, uint64_t now, uint64_t eligible_at) {
  account(now);
  uint32_t b = 0;
  while (blocks_[b].in_use) ++b;
  ResidentBlock& block = blocks_[b];
  block = ResidentBlock{};
  block.state = executor_.make_block(linear);
  block.linear = linear;
  block.start = eligible_at;
  block.in_use = true;
  uint32_t slot = 0;
  const uint32_t count = static_cast<uint32_t>(arch_.limits.max_warps_per_sm);
  const uint32_t per_block = executor_.warps_per_block();
  for (uint32_t i = 0; i < per_block; ++i) {
    while (slot < count && !warps_[slot].done) ++slot;
    TimedWarp& w = warps_[slot];
    executor_.reset_warp(w.state, block.state, i);
    live_[slot % schedulers_].push_back(slot);  // launch order is age order
    w.block_slot = b;
    w.slot = slot;
    w.age = next_age_++;
    w.eligible_at = eligible_at;
    w.start = eligible_at;
    w.done = false;
    w.at_barrier = false;
    w.next_known = false;
    w.pending_count = 0;
  }
  block.live_warps = per_block;
  live_warps_ += per_block;
  std::fill(wake_.begin(), wake_.end(), 0);
  --free_block_slots_;
  ++stats_.blocks;
}

Sm::Readiness Sm::readiness(TimedWarp& w, uint32_t scheduler, uint64_t now) {
  if (now < w.eligible_at) return {w.eligible_at, Stall::BlockLaunch};
  if (w.at_barrier) return {kNever, Stall::Barrier};
  if (!w.next_known) {
    const InstructionTiming& t = timing_[static_cast<size_t>(executor_.peek(w.state))];
    const auto uses = [&](uint32_t reg) {
      for (uint32_t r : t.reads)
        if (r == reg) return true;
      for (uint32_t r : t.writes)  // no overtaking a pending write to the same register
        if (r == reg) return true;
      return false;
    };
    uint64_t deps = 0, earliest = kNever;
    bool memory = false;
    for (int i = 0; i < w.pending_count; ++i) {
      const TimedWarp::Pending& p = w.pending[static_cast<size_t>(i)];
      earliest = std::min(earliest, p.at);
      if (p.at > deps && uses(p.reg)) {
        deps = p.at;
        memory = p.from_memory;
      }
    }
    // A full scoreboard takes no new write until its first entry arrives.
    if (w.pending_count == TimedWarp::kScoreboardEntries && t.writes[0] != kernel::kNoReg && earliest > deps) {
      deps = earliest;
      memory = false;
    }
    w.next = &t;
    w.operands_at = deps;
    w.operands_from_memory = memory;
    w.next_known = true;
  }
  if (w.operands_at > now) return {w.operands_at, w.operands_from_memory ? Stall::Memory : Stall::Dependency};
  if (issue_free_[scheduler] > now) return {issue_free_[scheduler], Stall::ExecutionUnitBusy};
  // The unit takes a new warp instruction in the first cycle in which it frees up.
  const uint64_t unit_cycle = unit_free_[scheduler][static_cast<int>(w.next->unit)] / kUnitTicks;
  if (unit_cycle > now) return {unit_cycle, Stall::ExecutionUnitBusy};
  return {now, Stall::Idle};
}

bool Sm::try_issue(TimedWarp& w, uint32_t scheduler, uint64_t now, bool dual) {
  if (dual && (w.done || readiness(w, scheduler, now).at > now)) return false;
  const int32_t pc = executor_.peek(w.state);
  const InstructionTiming& t = timing_[static_cast<size_t>(pc)];
  if (dual && (t.is_control || t.is_barrier)) return false;
  last_free_ = t.issue_slots == 0;
  ResidentBlock& block = blocks_[w.block_slot];
  executor_.set_clock(now);
  executor_.set_sm_id(id_);
  const exec::StepResult r = executor_.step(w.state, block.state);
  w.next_known = false;
  if (!r.instruction) {  // nothing left to run: every lane had exited
    retire_warp(w, now);
    return true;
  }
  ++stats_.warp_instructions;
  stats_.thread_instructions += static_cast<uint64_t>(std::popcount(r.active_mask));
  uint64_t latency = t.latency;
  uint64_t busy = t.occupancy;
  bool from_memory = false;
  if (r.instruction->op == kernel::Opcode::Shfl) {
    latency = static_cast<uint64_t>(arch_.shared_memory.latency);
  } else if (t.is_memory && r.addresses) {
    memory::MemoryRequest req;
    req.space = r.memory_space;
    req.is_store = r.instruction->op == kernel::Opcode::St || r.instruction->op == kernel::Opcode::Red;
    req.is_atomic = r.instruction->op == kernel::Opcode::Atom || r.instruction->op == kernel::Opcode::Red;
    req.cache_op = r.instruction->cache_op;
    req.mask = r.executed_mask;
    req.bytes_per_lane = r.access_bytes;
    req.addresses = r.addresses;
    req.sm = id_;
    if (req.mask) {
      const memory::MemoryResponse resp = memory_.access(req, now);
      latency = resp.latency;
      if (req.space == kernel::StateSpace::Shared) {
        // The banks serve the whole SM one pass per cycle: passes from every scheduler queue there.
        const uint64_t start = std::max(now, shared_free_);
        shared_free_ = start + resp.pipeline_cycles;
        latency += start - now;
      } else {
        busy = std::max<uint64_t>(busy, uint64_t{resp.pipeline_cycles} * kUnitTicks);  // wavefronts
      }
    }
    from_memory = true;
  }
  uint64_t& unit = unit_free_[scheduler][static_cast<int>(t.unit)];
  unit = std::max(unit, now * kUnitTicks) + busy;
  if (t.issue_slots > 1) issue_free_[scheduler] = now + t.issue_slots;
  // Retire arrived writes, then enter this instruction's.
  int kept = 0;
  for (int i = 0; i < w.pending_count; ++i) {
    const TimedWarp::Pending& p = w.pending[static_cast<size_t>(i)];
    bool rewritten = false;
    for (uint32_t reg : t.writes) rewritten |= reg == p.reg;
    if (p.at > now && !rewritten) w.pending[static_cast<size_t>(kept++)] = p;
  }
  w.pending_count = kept;
  for (uint32_t reg : t.writes) {
    if (reg == kernel::kNoReg || latency == 0) continue;
    if (w.pending_count < TimedWarp::kScoreboardEntries)
      w.pending[static_cast<size_t>(w.pending_count++)] = {reg, from_memory, now + latency};
  }
  if (r.status == exec::StepStatus::Exited) retire_warp(w, now);
  else if (r.status == exec::StepStatus::Barrier) arrive_at_barrier(w, r, now);
  return true;
}

void Sm::arrive_at_barrier(TimedWarp& w, const exec::StepResult& r, uint64_t now) {
  ResidentBlock& block = blocks_[w.block_slot];
  const uint32_t id = r.barrier_id;
  block.expected[id] = r.barrier_threads ? (r.barrier_threads + exec::kWarpSize - 1) / exec::kWarpSize : 0;
  ++block.arrived[id];
  if (r.barrier_waits) {
    w.at_barrier = true;
    w.barrier_id = id;
  }
  const uint32_t expected = block.expected[id] ? block.expected[id] : block.live_warps;
  if (block.arrived[id] < expected) return;
  // The release takes the barrier latency, plus a share per warp of the block.
  const uint64_t release = now + 1 + static_cast<uint64_t>(arch_.latencies.barrier) +
                           static_cast<uint64_t>(std::llround(arch_.latencies.barrier_per_warp * executor_.warps_per_block()));
  for (TimedWarp& other : warps_) {
    if (other.done || other.block_slot != w.block_slot || !other.at_barrier || other.barrier_id != id) continue;
    other.at_barrier = false;
    other.eligible_at = std::max(other.eligible_at, release);
  }
  block.arrived[id] = 0;
  block.expected[id] = 0;
  std::fill(wake_.begin(), wake_.end(), 0);
}

void Sm::retire_warp(TimedWarp& w, uint64_t now) {
  std::fill(wake_.begin(), wake_.end(), 0);
  w.done = true;
  const uint32_t sched = w.slot % schedulers_;
  auto& list = live_[sched];
  const size_t j = static_cast<size_t>(std::find(list.begin(), list.end(), w.slot) - list.begin());
  list.erase(list.begin() + static_cast<long>(j));
  // Keep the last issuer's position; if it is the one leaving, round robin resumes after
  // the warp before it.
  size_t& pos = last_pos_[sched];
  if (pos != std::string::npos && j <= pos) pos = (j == pos && j == 0) ? std::string::npos : pos - 1;
  --live_warps_;
  ResidentBlock& block = blocks_[w.block_slot];
  --block.live_warps;
  if (trace_warps_)
    warp_trace_.push_back({id_, w.slot, block.linear, w.state.warp_in_block, w.start, now + 1});
  if (block.live_warps == 0) {
    block.in_use = false;
    ++free_block_slots_;
    ++retired_;
    block_trace_.push_back({id_, block.linear, block.start, now + 1});
    stats_.busy_until = now + 1;
    return;
  }
  // Barriers waiting for every live warp may now be complete.
  for (uint32_t id = 0; id < block.arrived.size(); ++id) {
    if (block.arrived[id] == 0 || block.expected[id] != 0 || block.arrived[id] < block.live_warps) continue;
    for (TimedWarp& other : warps_)
      if (!other.done && other.block_slot == w.block_slot && other.at_barrier && other.barrier_id == id) {
        other.at_barrier = false;
        other.eligible_at = std::max(other.eligible_at, now + 1);
      }
    block.arrived[id] = 0;
  }
}

void Sm::order_candidates(uint32_t s, std::vector<uint32_t>& order) {
  // Two-level: an active set of warps not waiting on memory, oldest first; warps waiting
  // on loads drop to the pending set behind them.
  const std::vector<uint32_t>& live = live_[s];
  order.assign(live.begin(), live.end());
  std::stable_partition(order.begin(), order.end(), [&](uint32_t slot) {
    TimedWarp& w = warps_[slot];
    return w.eligible_at <= last_tick_ && readiness(w, s, last_tick_).reason != Stall::Memory;
  });
}

uint64_t Sm::tick(uint64_t now) {
  account(now);
  bool issued_any = false;
  uint64_t next = kNever;  // when nothing issues: the earliest cycle any warp becomes ready
  for (uint32_t s = 0; s < schedulers_; ++s) {
    if (wake_[s] > now) {  // still waiting, for the same reason as when last evaluated
      ++stats_.stalls[static_cast<int>(reason_[s])];
      next = std::min(next, wake_[s]);
      continue;
    }
    Stall reason = Stall::Idle;
    bool issued = false;
    uint64_t wake = kNever;
    // Returns true when the warp issued (ends the scan).
    const auto consider = [&](uint32_t slot, size_t index) {
      TimedWarp& w = warps_[slot];
      // Common case first, inline: a warp whose operands are known to be pending.
      if (w.next_known && w.operands_at > now && !w.at_barrier && w.eligible_at <= now) {
        if (reason == Stall::Idle) reason = w.operands_from_memory ? Stall::Memory : Stall::Dependency;
        wake = std::min(wake, w.operands_at);
        return false;
      }
      const Readiness r = readiness(w, s, now);
      if (r.at > now) {
        if (reason == Stall::Idle) reason = r.reason;
        wake = std::min(wake, r.at);
        return false;
      }
      issued = try_issue(w, s, now, false);
      // An instruction ptxas folds into its user took no issue cycle: the warp goes on.
      while (last_free_ && !w.done && readiness(w, s, now).at <= now) try_issue(w, s, now, false);
      for (int extra = 1; extra < arch_.scheduling.issue_width && try_issue(w, s, now, true); ++extra) {
      }
      last_issued_[s] = slot;
      last_pos_[s] = index;
      return true;
    };
    const std::vector<uint32_t>& live = live_[s];  // oldest first
    const size_t n = live.size();
    const size_t at = last_pos_[s] < n ? last_pos_[s] : n;  // n: no last issuer
    switch (arch_.scheduling.policy) {
      case arch::SchedulerPolicy::LooseRoundRobin: {  // start after the warp that issued last
        const size_t start = at < n ? at + 1 : 0;
        for (size_t i = 0; i < n; ++i)
          if (consider(live[(start + i) % n], (start + i) % n)) break;
        break;
      }
      case arch::SchedulerPolicy::GreedyThenOldest:  // the last issuer while it can, then the oldest
      {
        // Greedy only while the last issuer is still there (it may have exited).
        const size_t greedy = at < n && live[at] == last_issued_[s] ? at : n;
        if (greedy < n && consider(live[greedy], greedy)) break;
        for (size_t i = 0; i < n; ++i)
          if (i != greedy && consider(live[i], i)) break;
        break;
      }
      case arch::SchedulerPolicy::TwoLevel:
        order_candidates(s, order_);
        for (uint32_t slot : order_)
          if (consider(slot, static_cast<size_t>(std::find(live.begin(), live.end(), slot) - live.begin()))) break;
        break;
    }
    const bool had_warps = n > 0;
    if (issued) {
      ++stats_.issue_cycles;
      issued_any = true;
      reason_[s] = Stall::Idle;  // not charged: this cycle issued
      wake_[s] = 0;
    } else {
      reason_[s] = reason;
      ++stats_.stalls[static_cast<int>(reason)];
      wake_[s] = had_warps ? wake : kNever;
      next = std::min(next, wake);
    }
  }
  stats_.warp_cycles += live_warps_;
  if (live_warps_ > 0) ++stats_.active_cycles;
  last_tick_ = now + 1;
  if (live_warps_ == 0) return kNever;  // asleep until the block scheduler brings work
  if (issued_any) return now + 1;
  return std::max(next, now + 1);
}

void Sm::finish(uint64_t end) {
  for (uint32_t s = 0; s < schedulers_; ++s)
    if (live_warps_ == 0) reason_[s] = Stall::Idle;
  account(end);
}

std::string Sm::describe_stuck() const {
  std::string out;
  for (const TimedWarp& w : warps_) {
    if (w.done || !w.at_barrier) continue;
    if (!out.empty()) out.append(", ");
    out.append("SM ").append(std::to_string(id_)).append(" block ").append(std::to_string(blocks_[w.block_slot].linear));
    out.append(" warp ").append(std::to_string(w.state.warp_in_block)).append(" at barrier ");
    out.append(std::to_string(w.barrier_id));
  }
  return out;
}

}  // namespace gpusim::core
