// The SM's side of ptxas's loop unrolling (core/hoist_queue.hpp): which instruction a warp
// issues next, setting aside what waits for memory, and issuing what was set aside.
#include <algorithm>
#include <bit>

#include "core/sm.hpp"

namespace gpusim::core {

void Sm::choose_next(TimedWarp& w, engine::Cycle now) {
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
          set_aside(w, t, now);
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

void Sm::set_aside(TimedWarp& w, const InstructionTiming& t, engine::Cycle now) {
  ResidentBlock& block = blocks_[w.block_slot];
  executor().set_clock(now);
  executor().set_sm_id(id_);
  DeferredOp& op = w.hoist.push();
  op.timing = &t;
  op.ticket = w.hoist.next_ticket();
  w.scoreboard.dependencies(t, op.known, op.waits);
  op.step = executor().step(w.state, block.state);
  // The executor reuses its buffer: keep this instruction's addresses (op.step.addresses
  // then only says there are some: the queue may move `op` before it issues).
  if (op.step.addresses) std::copy_n(op.step.addresses, op.addresses.size(), op.addresses.begin());
  w.scoreboard.defer(t, op.ticket);
}

void Sm::issue_set_aside(TimedWarp& w, Scheduler& s, engine::Cycle now) {
  const DeferredOp& op = w.hoist.front();
  const InstructionTiming& t = *op.timing;
  last_free_ = t.issue_slots == 0;
  exec::StepResult step = op.step;
  if (step.addresses) step.addresses = op.addresses.data();
  const auto [ready, ticket, busy] = begin(w, t, step, now);
  occupy(s, t, busy, now);
  w.scoreboard.resolve(op.ticket, ready, ticket);
  w.hoist.resolve(op.ticket, ready, ticket);
  w.hoist.pop();
  pay_stall_count(w, t, now);
  w.hoist.value_used();
  w.next_waited_memory = false;
  gate(w).next_known = false;
  unpark(w.slot);
}

}  // namespace gpusim::core
