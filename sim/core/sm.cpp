#include "core/sm.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

#include "util/bits.hpp"

namespace gpusim::core {

bool Sm::active(uint32_t slot, engine::Cycle now) {
  TimedWarp& w = warps_[slot];
  if (gate(w).eligible_at > now) return false;
  const Stall r = readiness(w, *scanning_, now).reason;
  return r != Stall::LongScoreboard && r != Stall::ShortScoreboard;
}

bool Sm::try_offer(IssueScan& scan, size_t index) {
  Scheduler& s = *scanning_;
  const engine::Cycle now = scan.now();
  const uint32_t slot = s.live[index];
  TimedWarp& w = warps_[slot];
  const Readiness r = offered_readiness(w, s, now);
  if (r.at > now) {
    if (r.at == kNever) scan.park(index);
    scan.wait(r.reason, r.at);
    return false;
  }
  issue(w, s, now);
  issued_ = true;
  // An instruction ptxas folds into its user took no issue cycle: the warp goes on.
  while (last_free_ && !w.done && readiness(w, s, now).at <= now) try_issue(w, s, now, false);
  for (int extra = 1; extra < config_.issue_width && try_issue(w, s, now, true); ++extra) ++stats_.dual_issues;
  s.last_issued = slot;
  s.last_pos = index;
  return true;
}

void Sm::account(engine::Cycle until) {
  if (until <= last_tick_) return;
  if (!unready_warps_.empty()) make_ready();  // the source view reads the warps' PCs
  const uint64_t span = until - last_tick_;
  if (!profile_.empty()) profile_states(last_tick_, span);
  for (const Scheduler& s : schedulers_) stats_.stalls[static_cast<int>(s.reason)] += span;
  stats_.warp_cycles += uint64_t{live_warps_} * span;
  if (live_warps_ > 0) stats_.active_cycles += span;
  last_tick_ = until;
}

void Sm::wake_all() {
  for (Scheduler& s : schedulers_) s.wake = 0;
}

// Which instruction the warp issues next, setting aside what waits for memory (core/hoist_queue.hpp,
// sm_hoist.cpp). Here, beside readiness(), its only caller, to be compiled into it: its call
// cost 0.9% of the Hopper stencil's host instructions.
inline void Sm::choose_next(TimedWarp& w) {
  // `loaded`: it waits for a value a load brought (not a parameter or constant: operands in
  // SASS), so issuing it opens a new load window.
  WarpGate& g = gate(w);
  const auto know = [&w, &g](const InstructionTiming* t, engine::Cycle at, Stall waits, bool set_aside, bool loaded) {
    g.next = t;
    g.operands_at = at;
    g.operands_wait = waits;
    w.next_set_aside = set_aside;
    g.next_known = true;
    if (loaded) w.next_waited_memory = true;
  };
  HoistQueue& q = w.hoist;
  for (;;) {
    const int32_t pc = executor().peek(w.state);
    const bool queued = !q.empty();
    if (pc >= 0) {
      const InstructionTiming& t = kernel_.timing[static_cast<size_t>(pc)];
      if (!q.holds_back(t, config_.taken_branch > 0)) {
        Scoreboard::Wait wait = w.scoreboard.operands(t, queued);
        if (t.rare && (t.async == AsyncRole::Wait || t.async == AsyncRole::WaitAll)) {
          // Until the copies it waits for are in shared memory (kNever: a response is still due).
          const engine::Cycle copied = w.async.ready_at(t.async_allowed, t.async == AsyncRole::WaitAll);
          if (copied > wait.at) wait = {copied, Scoreboard::kFirstLoad};  // as for a load: loaded data
        }
        const bool waits_for_memory = wait.at == kNever && wait.from_memory();
        if (config_.hoist_trips > 1 && waits_for_memory && !t.is_control && !t.hoist_fence && !q.full() &&
            !q.window_full(config_.hoist_loads) && w.scoreboard.has_room(t)) {
          set_aside(w, t);
          continue;
        }
        const engine::Cycle head = queued ? q.front().ready_at() : kNever;
        if (!queued || wait.at <= head) return know(&t, wait.at, operand_stall(wait), false, wait.loaded());
      }
    }
    if (!queued) return know(&kernel_.timing.back(), 0, Stall::Wait, false, false);  // every lane has exited: try_issue retires it
    return know(q.front().timing, q.front().ready_at(), Stall::LongScoreboard, true, true);
  }
}

inline Readiness Sm::readiness(TimedWarp& w, Scheduler& s, engine::Cycle now) {
  const WarpGate& g = gate(w);
  if (now < g.eligible_at) return {g.eligible_at, g.eligible_wait};
  if (g.at_barrier) return {kNever, Stall::Barrier};
  if (!g.next_known) choose_next(w);
  const Readiness known = known_readiness(g, s.units, now);
  if (known.at > now) return known;
  return lsu_readiness(g, now);
}

inline Readiness Sm::offered_readiness(TimedWarp& w, Scheduler& s, engine::Cycle now) {
  const WarpGate& g = gate(w);
  if (!g.next_known) {
    choose_next(w);
    // offer() has seen the gate open, and choosing the next instruction (setting aside
    // loads, which are not barriers) leaves it so.
    const Readiness known = operands_readiness(g, s.units, now);
    if (known.at > now) return known;
  }
  return lsu_readiness(g, now);
}

inline Readiness Sm::lsu_readiness(const WarpGate& g, engine::Cycle now) {
  if (g.next->needs_mshr) {
    const engine::Cycle accepted = lsu_.accepts_at(now);
    if (accepted > now) return {accepted, Stall::LgThrottle};
  }
  return {now, Stall::Idle};
}

Sm::Begun Sm::begin(TimedWarp& w, const InstructionTiming& t, const exec::StepResult& r, engine::Cycle now) {
  if (profile_.empty()) return start(w, t, r, now);
  const TrafficMark before = traffic_mark();
  const Begun b = start(w, t, r, now);
  memory_.settle(id_);  // the L2's and DRAM's counts of this request, for this instruction's line
  profile_issue(w, t, r, before, now);
  return b;
}

inline Sm::Begun Sm::start(TimedWarp& w, const InstructionTiming& t, const exec::StepResult& r, engine::Cycle now) {
  ++stats_.warp_instructions;
  stats_.thread_instructions += static_cast<uint64_t>(util::lane_count(r.active_mask));
  stats_.predicated_on_threads += static_cast<uint64_t>(util::lane_count(r.executed_mask));
  Begun b{now + t.latency, Scoreboard::kArithmetic, t.occupancy};
  if (!t.is_memory) return b;  // a shuffle is on the load/store unit too
  if (r.instruction && r.instruction->op == kernel::Opcode::Shfl) {
    b.ready = now + static_cast<engine::Cycle>(config_.shared.latency);
  } else if (r.addresses) {
    b.ticket = Scoreboard::kMemoryKnown;
    if (r.executed_mask) {
      const LoadStoreUnit::Access a = lsu_.access(r, w.slot, now, stats_);
      b.ready = a.ready;
      b.ticket = a.ticket;
      if (t.occupancy != 0) b.busy = std::max(b.busy, a.busy_ticks);  // 0: an operand, no unit time
    } else if (t.space == kernel::StateSpace::Shared && !t.is_store) {
      // Every lane predicated off: the load still goes down the pipe and answers after its
      // latency, and what reads its register waits for that (micro_predication #1/#2: a
      // skipped and a run body take the H100 the same time; validate/probes/branch_cost.py's
      // forward_taken: a store waits out a skipped LDC's scoreboard).
      b.ready = now + static_cast<engine::Cycle>(config_.shared.latency);
    }
  }
  return b;
}

void Sm::occupy(Scheduler& s, const InstructionTiming& t, uint64_t busy, engine::Cycle now) {
  const Unit pipe = first_free_unit(t, s.units.unit_free);
  uint64_t& unit = s.units.unit_free[static_cast<size_t>(pipe)];
  unit = std::max(unit, now * kUnitTicks) + busy;
  stats_.pipe_busy[static_cast<size_t>(pipe)] += busy;
  if (t.issue_slots > 1) s.units.issue_free = now + t.issue_slots;
}

bool Sm::try_issue(TimedWarp& w, Scheduler& s, engine::Cycle now, bool dual) {
  if (dual) {
    // A second instruction: not one set aside (the queue must be empty), nor a branch or barrier.
    if (w.done || !w.hoist.empty() || readiness(w, s, now).at > now) return false;
    if (gate(w).next->is_control || gate(w).next->is_barrier) return false;
  }
  issue(w, s, now);
  return true;
}

inline void Sm::issue(TimedWarp& w, Scheduler& s, engine::Cycle now) {
  if (w.next_set_aside) {
    issue_set_aside(w, s, now);
    return;
  }
  exec::Executor& ex = executor();
  const InstructionTiming& t = *gate(w).next;  // readiness() found it: the instruction at the warp's PC
  const auto pc = static_cast<int32_t>(&t - kernel_.timing.data());
  last_free_ = t.issue_slots == 0;
  ResidentBlock& block = blocks_[w.block_slot];
  const exec::StepResult r = ex.step(w.state, block.state);
  gate(w).next_known = false;
  unpark(s, w.slot);
  if (!r.instruction) {  // nothing left to run: every lane had exited
    retire_warp(w, now);
    return;
  }
  // Unprofiled, start() inline: begin()'s call cost 1.7% of the Hopper stencil's host instructions.
  auto [ready, ticket, busy] = profile_.empty() ? start(w, t, r, now) : begin(w, t, r, now);
  if (t.rare) ready += after_rare_issue(w, t, r, ticket, now);
  occupy(s, t, busy, now);
  w.scoreboard.issue(t, now, ready, ticket);
  // A use of a loaded value opens a new window; parameters and constants are operands in
  // SASS, not loads.
  if (w.next_waited_memory) w.hoist.value_used();
  else if (t.is_memory && !t.is_store && t.space != kernel::StateSpace::Param && t.space != kernel::StateSpace::Const)
    w.hoist.load_issued(config_.hoist_loads);
  w.next_waited_memory = false;
  pay_stall_count(w, t, now);
  if (t.is_control) {
    const int32_t after = ex.peek(w.state);
    const bool backward = after >= 0 && after <= pc;  // taken back: one more trip of the loop
    if (backward && !w.hoist.empty()) w.hoist.trip_passed(t.unroll_trips);
    if (config_.taken_branch > 0 && after >= 0 && after != pc + 1 && r.instruction->op == kernel::Opcode::Bra) {
      // An unrolled loop's body holds unroll_trips of the PTX loop's trips and one branch.
      if (!backward || t.unroll_trips <= 1 || ++w.unrolled_trips % t.unroll_trips == 0) take_branch(w, now);
    }
  }
  if (r.status == exec::StepStatus::Exited) retire_warp(w, now);
  else if (r.status == exec::StepStatus::Barrier) arrive_at_barrier(w, r, now);
}

void Sm::take_branch(TimedWarp& w, engine::Cycle now) {
  hold(w, now + static_cast<engine::Cycle>(config_.taken_branch), Stall::BranchResolving);
}

void Sm::hold(TimedWarp& w, engine::Cycle until, Stall why) {
  if (until <= gate(w).eligible_at) return;
  gate(w).eligible_at = until;
  gate(w).eligible_wait = why;
}

engine::Cycle Sm::after_rare_issue(TimedWarp& w, const InstructionTiming& t, const exec::StepResult& r, uint32_t ticket,
                                   engine::Cycle now) {
  if (t.async == AsyncRole::Copy && ticket >= Scoreboard::kFirstLoad) w.async.in_flight.push_back({ticket, w.async.open_group, kNever});
  if (t.async == AsyncRole::Commit || t.async == AsyncRole::WaitAll) ++w.async.open_group;
  if (r.sleep_ns) {  // nanosleep: the warp waits about that long (the GPU guarantees at most twice)
    gate(w).eligible_at = now + 1 + static_cast<engine::Cycle>(std::ceil(r.sleep_ns * config_.cycles_per_ns));
    gate(w).eligible_wait = Stall::Sleeping;
  }
  return engine::Cycle{t.per_value} * (r.distinct_values - 1);  // match.sync serialises over the lanes' values
}

void Sm::set_batch(TickBatch* batch) {
  batch_ = batch;
  if (batch_) memory_.pull_responses(id_);
}

void Sm::on_response(uint64_t tag) {
  const engine::Cycle now = events_.now();
  if (live_index_[LoadStoreUnit::slot_of(tag)] == kNotLive) return;  // the warp has gone
  if (take_response(tag, now)) events_.schedule_by(tick_event_, now);
}

// In a batch, a response's settle (after this SM's cycle) says when it is due: the SM ticks
// then and takes it in run_cycle. Were it for a warp that has gone, or one that no
// instruction waits for, the tick is one more with nothing to issue: it charges the cycle's
// stalls as the next tick would, and the next is due when it was. (An SM left without warps
// takes it without a tick: run_cycle.)
void Sm::on_response_due(engine::Cycle at) {
  response_due_ = std::min(response_due_, at);
  // One answered in the SM's own cycle: its next tick covers it. (No batch: a launch stopped
  // by a fault, its SMs' last requests settled as they go.)
  if (!in_cycle_ && batch_) batch_->wake(id_, at);
}

bool Sm::take_response(uint64_t tag, engine::Cycle now) {
  TimedWarp& w = warps_[LoadStoreUnit::slot_of(tag)];
  const uint32_t ticket = LoadStoreUnit::ticket_of(tag);
  // A cp.async's data goes on into shared memory: one shared-memory access more.
  if (!w.async.arrived(ticket, now, static_cast<engine::Cycle>(config_.shared.latency))) {
    const bool waited = w.scoreboard.arrived(ticket, now);
    if (!w.hoist.resolve(ticket, now, 0) && !waited) return false;  // a load of a warp that has gone
  }
  gate(w).next_known = false;
  unpark(w.slot);
  schedulers_[scheduler_of_[w.slot]].wake = 0;
  return true;
}

engine::Cycle Sm::tick(engine::Cycle now) { return tick_inline(now); }

inline engine::Cycle Sm::tick_inline(engine::Cycle now) {
  if (!unready_warps_.empty()) make_ready();
  // What %clock and %smid read in every instruction this cycle executes (issued or set aside).
  executor().set_clock(now);
  executor().set_sm_id(id_);
  account(now);
  // Each scheduler's last issuer is the likeliest to issue again (greedy policies): fetch its
  // state from host memory while the schedulers before it scan.
  for (const Scheduler& s : schedulers_)
    if (s.wake <= now && !s.live.empty()) {
      const TimedWarp& w = warps_[s.last_issued];
      __builtin_prefetch(&w);
      __builtin_prefetch(&w.scoreboard);
      __builtin_prefetch(&w.state);
    }
  bool issued_any = false;
  engine::Cycle next = kNever;  // when nothing issues: the earliest cycle any warp becomes ready
  for (Scheduler& s : schedulers_) {
    if (s.wake > now) {  // still waiting, for the same reason as when last evaluated
      ++stats_.stalls[static_cast<int>(s.reason)];
      next = std::min(next, s.wake);
      continue;
    }
    IssueScan& scan = *s.scan;
    scan.restart(s.live.size(), s.last_pos, s.last_issued, now);
    const bool had_warps = !s.live.empty();
    scanning_ = &s;
    issued_ = false;
    s.policy->pick(scan);
    if (issued_) {
      ++stats_.issue_cycles;
      issued_any = true;
      s.reason = Stall::Idle;  // not charged: this cycle issued
      s.wake = 0;
    } else {
      s.reason = scan.reason();
      ++stats_.stalls[static_cast<int>(scan.reason())];
      s.wake = had_warps ? scan.wake() : kNever;
      next = std::min(next, scan.wake());
    }
  }
  stats_.warp_cycles += live_warps_;
  if (live_warps_ > 0) ++stats_.active_cycles;
  if (!profile_.empty()) profile_states(now, 1);
  last_tick_ = now + 1;
  if (live_warps_ == 0) return kNever;  // asleep until the block scheduler brings work
  if (issued_any) return now + 1;
  return std::max(next, now + 1);
}

void Sm::run_cycle(engine::Cycle now, exec::Executor& executor) { run_cycle_inline(now, executor); }

inline void Sm::run_cycle_inline(engine::Cycle now, exec::Executor& executor) {
  executor_ = &executor;
  executor.set_store_log(&stores_);
  stores_.set_cycle(now);
  instructions_before_ = stats_.warp_instructions;
  try {
    // Responses due now, as events would have delivered them before any SM's cycle: a warp
    // not live then is not live now (warps retire in their SM's cycle), and one launched
    // since (this cycle) has nothing in flight, so take_response passes over its tag.
    if (response_due_ <= now) {
      response_due_ = memory_.take_due(id_, now, [this, now](uint64_t tag) {
        if (live_index_[LoadStoreUnit::slot_of(tag)] != kNotLive) take_response(tag, now);
      });
      // Woken only to take the responses of warps gone, the SM does not tick, as in order
      // (their events wake no SM): its idle cycles are charged up to its next tick or the
      // kernel's end. A tick in the cycle the last one lands charged one cycle past that end.
      if (live_warps_ == 0) {
        next_tick_ = response_due_;
        executor.set_store_log(nullptr);
        return;
      }
    }
    in_cycle_ = true;
    const engine::Cycle next = tick_inline(now);
    in_cycle_ = false;
    next_tick_ = std::min(next, response_due_);  // a later response's wake was folded into this tick
  } catch (...) {  // thrown in SM order, at end_cycle
    in_cycle_ = false;
    fault_ = std::current_exception();
  }
  executor.set_store_log(nullptr);
}

// A quantum's cycles (core/sm_quantum.cpp). Here, beside run_cycle and tick, so that each
// cycle is compiled into this loop: their two calls a cycle cost 2.6% of the Hopper copy's
// host instructions, whose SMs tick 1.7 times per warp instruction.
void Sm::run_until(engine::Cycle until, exec::Executor& executor) {
  executor_ = &executor;
  engine::Cycle at = quantum_at_;
  while (!fault_) {
    // A block the dispatcher gave it at a release in cycle r (at `now` r + 1) comes after
    // the SM's cycles before r and before its cycle r, as the release's event would.
    for (; quantum_placed_ < planned_.size() && planned_[quantum_placed_].now - 1 <= at; ++quantum_placed_) {
      const PlannedLaunch& p = planned_[quantum_placed_];
      place_block(p.linear, p.eligible_at, p.room_at);
      at = std::min(at, p.now);
    }
    if (at >= until) break;
    run_cycle_inline(at, executor);
    quantum_last_ = at;
    if (fault_) {
      fault_cycle_ = at;
      at = kNever;
      break;
    }
    at = next_tick_;
    if (retired_ > 0) {
      quantum_retired_ = quantum_last_;
      if (stop_at_retire_) {
        stopped_at_ = quantum_last_;
        break;
      }
    }
    if (progress_out_) progress_out_->store(at, std::memory_order_relaxed);
  }
  quantum_at_ = at;
}

}  // namespace gpusim::core
