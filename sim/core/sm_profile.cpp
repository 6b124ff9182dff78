// The source view's accounting on the SM: every cycle, each live warp is in one state
// (selected, not selected, or a stall reason) and that cycle is charged to the instruction
// it waits to issue, as Nsight Compute's warp-state sampling does with one sample per
// cycle. Barrier waits are charged to the barrier itself, where students look for them.
#include <bit>

#include "core/sm.hpp"

namespace gpusim::core {

Sm::WarpState Sm::warp_state(TimedWarp& w, const Scheduler& s, engine::Cycle now) {
  const auto index_of = [this](const InstructionTiming* t) { return static_cast<size_t>(t - kernel_.timing.data()); };
  if (w.issued_at == now) return {w.issued_index, kSelected};
  const WarpGate& g = gate(w);
  if (g.at_barrier || (now < g.eligible_at && g.eligible_wait == Stall::Barrier))
    return {w.issued_index, static_cast<int>(Stall::Barrier)};
  const InstructionTiming* t = nullptr;
  Readiness r{now, Stall::Idle};
  if (g.next_known) {
    t = g.next;
    r = known_readiness(g, s.units, now);
  } else {
    // What choose_next would find, read without setting anything aside: the instruction
    // at the PC, or the oldest set-aside one where the PC's must wait behind it.
    const int32_t pc = executor().peek(w.state);
    const HoistQueue& q = w.hoist;
    t = pc >= 0 ? &kernel_.timing[static_cast<size_t>(pc)] : &kernel_.timing.back();
    Scoreboard::Wait wait = pc >= 0 ? w.scoreboard.operands(*t, !q.empty()) : Scoreboard::Wait{};
    if (!q.empty() && (pc < 0 || q.holds_back(*t, config_.taken_branch > 0) || wait.at > q.front().ready_at())) {
      t = q.front().timing;
      wait = {q.front().ready_at(), Scoreboard::kFirstLoad};
    }
    r = now < g.eligible_at ? Readiness{g.eligible_at, g.eligible_wait}
        : wait.at > now     ? Readiness{wait.at, operand_stall(wait)}
                            : units_readiness(*t, s.units, now);
  }
  if (r.at <= now && t->needs_mshr && lsu_.accepts_at(now) > now) r.reason = Stall::LgThrottle;
  else if (r.at <= now) return {index_of(t), kNotSelected};
  return {index_of(t), static_cast<int>(r.reason)};
}

void Sm::profile_states(engine::Cycle at, uint64_t cycles) {
  for (const Scheduler& s : schedulers_)
    for (uint32_t slot : s.live) {
      TimedWarp& w = warps_[slot];
      if (w.issued_at == at) continue;  // an issue's cycle is counted at the issue
      const WarpState st = warp_state(w, s, at);
      profile_.counters[st.index].warp_cycles[static_cast<size_t>(st.state)] += cycles;
    }
}

void Sm::profile_issue(TimedWarp& w, const InstructionTiming& t, const exec::StepResult& r, const TrafficMark& before,
                       engine::Cycle now) {
  const size_t index = static_cast<size_t>(&t - kernel_.timing.data());
  InstructionCounters& c = profile_.counters[index];
  ++c.warp_executions;
  c.thread_executions += static_cast<uint64_t>(std::popcount(r.active_mask));
  c.predicated_threads += static_cast<uint64_t>(std::popcount(r.executed_mask));
  if (w.issued_at != now) ++c.warp_cycles[kSelected];  // a second instruction in the cycle takes no cycle more
  w.issued_at = now;
  w.issued_index = index;
  const memory::MemoryStats m = memory_.stats() - before.memory;
  c.global_requests += m.global_load_requests + m.global_store_requests;
  c.global_sectors += m.global_load_transactions + m.global_store_transactions;
  c.l1_hit_sectors += m.l1_hits;
  c.l1_miss_sectors += m.l1_misses;
  c.l2_hit_sectors += m.l2_hits;
  c.l2_miss_sectors += m.l2_misses;
  c.shared_requests += stats_.shared_requests - before.shared_requests;
  c.shared_passes += stats_.shared_passes - before.shared_passes;
}

}  // namespace gpusim::core
