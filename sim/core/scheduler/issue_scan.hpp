// One scheduler's cycle as a policy sees it (core/scheduler/policy.hpp): the live warps in
// age order, where the last issuer is, and offer(), which tries to issue one.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/instruction_class.hpp"
#include "core/launch_stats.hpp"
#include "core/warp.hpp"
#include "engine/event_queue.hpp"

namespace gpusim::core {

class IssueScan;

// One scheduler's issue resources: when each execution unit and the issue slot are free.
struct IssueUnits {
  std::array<uint64_t, kUnitCount> unit_free{};  // in 1/kUnitTicks cycles
  engine::Cycle issue_free = 0;                  // first cycle it can issue again (expanded instructions)
};

// When a warp whose next instruction is known can issue, and if not now, why: the
// scheduler's readiness rule, but for the miss-status check its load/store unit adds.
struct Readiness {
  engine::Cycle at = 0;  // earliest cycle it can issue (kNever: waits on another warp or a response)
  Stall reason = Stall::Idle;
};
// What an instruction whose operands are not ready waits for.
inline Stall operand_stall(const Scoreboard::Wait& w) {
  if (!w.from_memory()) return Stall::Wait;
  return w.from_load() ? Stall::LongScoreboard : Stall::ShortScoreboard;
}
// Which throttle a busy unit is, in Nsight Compute's terms.
inline Stall unit_throttle(const InstructionTiming& t) {
  if (t.unit != Unit::LoadStore) return Stall::MathPipeThrottle;
  using kernel::StateSpace;
  return t.space == StateSpace::Shared || t.space == StateSpace::Const || t.space == StateSpace::Param
             ? Stall::MioThrottle
             : Stall::LgThrottle;
}
// Whether `t` can start on the scheduler's units at `now`; if not, when and why.
inline Readiness units_readiness(const InstructionTiming& t, const IssueUnits& units, engine::Cycle now) {
  if (units.issue_free > now) return {units.issue_free, Stall::DispatchStall};
  if (t.occupancy == 0) return {now, Stall::Idle};  // folded into its user, or an operand: no unit
  // The unit takes a new warp instruction in the first cycle in which it frees up.
  const engine::Cycle unit_cycle = units.unit_free[static_cast<size_t>(first_free_unit(t, units.unit_free))] / kUnitTicks;
  if (unit_cycle > now) return {unit_cycle, unit_throttle(t)};
  return {now, Stall::Idle};
}
// known_readiness() once the gate is open (eligible, not at a barrier): operands, then units.
inline Readiness operands_readiness(const WarpGate& w, const IssueUnits& units, engine::Cycle now) {
  if (w.operands_at > now) return {w.operands_at, w.operands_wait};
  return units_readiness(*w.next, units, now);
}
inline Readiness known_readiness(const WarpGate& w, const IssueUnits& units, engine::Cycle now) {
  if (now < w.eligible_at) return {w.eligible_at, w.eligible_wait};
  if (w.at_barrier) return {engine::kNever, Stall::Barrier};
  return operands_readiness(w, units, now);
}

// What issues a warp's instruction (the SM): the slow path of an offer.
class Issuer {
 public:
  virtual ~Issuer() = default;
  // Issues live[index] if it is ready, or notes why not in `scan`; true when it issued.
  // Only offer() calls it, once the warp's gate has let it by (and, with its next instruction
  // known, that instruction's operands and units): those need no second look.
  virtual bool try_offer(IssueScan& scan, size_t index) = 0;
  // Whether the warp in `slot` is launched and not waiting for a load.
  virtual bool active(uint32_t slot, engine::Cycle now) = 0;
};

// One scheduler's cycle, as a policy sees it. Offering a warp whose next instruction is
// known and cannot issue yet costs a few comparisons here, inline; anything else (a warp
// that may issue, or whose next instruction must be looked up) goes to the SM.
class IssueScan {
 public:
  // `parked` (null: none kept): one bit per position in `live` (positions < 64) whose warp
  // cannot issue until something the SM clears the bit for (a response, a barrier's release,
  // an issue). By position, so that a scan steps over a run of them at once (next()).
  // `gates`: the SM's, by warp slot.
  // `known_waits` (null: none kept): by position in `live`, the cycle before which the warp's
  // gate alone turned it down when a scan last offered it (0: none known). The SM forgets a
  // warp's (sets 0) wherever it unparks it: only those events (a response, a barrier's
  // release, an issue, a launch) can bring that cycle forward. A scan passes over a warp whose
  // known wait is still ahead, as offer() would turn it down, noting that wait.
  IssueScan(Issuer& issuer, const WarpGate* gates, std::span<const uint32_t> live, const IssueUnits& units,
            size_t last_pos, uint32_t last_slot, engine::Cycle now, uint64_t* parked = nullptr,
            engine::Cycle* known_waits = nullptr)
      : issuer_(issuer), gates_(gates), live_(live), units_(units), last_pos_(last_pos), last_slot_(last_slot),
        now_(now), parked_(parked), known_waits_(known_waits) {}

  // The next cycle's scan of the same scheduler: `count` live warps, the last issuer at
  // `last_pos` (a scan kept per scheduler, so that a cycle sets only what changes).
  void restart(size_t count, size_t last_pos, uint32_t last_slot, engine::Cycle now) {
    live_ = {live_.data(), count};
    last_pos_ = last_pos;
    last_slot_ = last_slot;
    now_ = now;
    reason_ = Stall::Idle;
    wake_ = engine::kNever;
  }

  // The scheduler's live warp slots, oldest first.
  std::span<const uint32_t> live() const { return live_; }
  // The index in live() of the warp that issued last, or live().size() when it is gone.
  size_t last_index() const { return last_pos_ < live_.size() ? last_pos_ : live_.size(); }
  // The slot of the warp that issued last.
  uint32_t last_slot() const { return last_slot_; }
  engine::Cycle now() const { return now_; }

  // Offers live()[index] for issue: true when it issued (the cycle's scan is over).
  bool offer(size_t index) {
    // A parked warp adds nothing once a reason is kept: its wait has no end in sight.
    if (reason_ != Stall::Idle && parked(index)) return false;
    return offer_unparked(index);
  }
  // Offers, in order, each index in [from, end) but `skip` that is worth offering (next()):
  // true when one issued. Compiled into each caller: loose round robin's two calls a pick,
  // as calls, cost Fermi's stencil 3.3% of its host instructions.
  [[gnu::always_inline]] bool offer_each(size_t from, size_t end, size_t skip = ~size_t{0}) {
    for (size_t i = next(from, end); i < end; i = next(i + 1, end))
      if (i != skip && offer_unparked(i)) return true;  // next() passed over the parked ones
    return false;
  }
  // live()[index] waits for a response or a barrier's release (kNever): park it.
  void park(size_t index) {
    if (parked_ && index < 64) *parked_ |= uint64_t{1} << index;
  }
  // The first index in [from, end) worth offering: every one until a reason is kept, then
  // those not parked (offer() would pass over the others without a look) and whose known
  // wait is not ahead (offer() would note it and turn them down: so does this).
  size_t next(size_t from, size_t end) {
    if (reason_ == Stall::Idle || !parked_) return from;
    while (from < end) {
      if (from < 64 && (*parked_ >> from & 1u)) {  // a run of parked warps, at once
        const uint64_t open = ~*parked_ >> from;
        from += open ? static_cast<size_t>(std::countr_zero(open)) : 64 - from;
        continue;
      }
      if (!known_waits_ || known_waits_[from] <= now_) return from;
      wake_ = std::min(wake_, known_waits_[from]);
      ++from;
    }
    return end;
  }
  // Whether the warp in `slot` is ready to compete: launched and not waiting for a load.
  bool active(uint32_t slot) { return issuer_.active(slot, now_); }

  // An offered warp cannot issue before `at`, for `reason` (the first such reason is kept).
  void wait(Stall reason, engine::Cycle at) {
    if (reason_ == Stall::Idle) reason_ = reason;
    wake_ = std::min(wake_, at);
  }
  // wait(), for live()[index], when its gate alone gives the wait (WarpGate: not before
  // eligible_at, not at a barrier, not before operands_at): kept as its known wait.
  void turn_down(size_t index, Stall reason, engine::Cycle at) {
    if (known_waits_) known_waits_[index] = at;
    wait(reason, at);
  }
  engine::Cycle wake() const { return wake_; }  // the earliest cycle an offered (or passed) warp can issue
  Stall reason() const { return reason_; }      // why nothing issued

 private:
  bool parked(size_t index) const { return parked_ && index < 64 && (*parked_ >> index & 1u); }
  // offer(), for a warp known not to be parked, or offered while no reason is kept.
  bool offer_unparked(size_t index) {
    const WarpGate& w = gates_[live_[index]];
    // Waits that do not depend on the next instruction (a block still launching, a barrier)
    // are answered here too: short blocks spend much of their life in them.
    if (now_ < w.eligible_at) {
      turn_down(index, w.eligible_wait, w.eligible_at);
      return false;
    }
    if (w.at_barrier) {
      park(index);
      turn_down(index, Stall::Barrier, engine::kNever);
      return false;
    }
    if (w.next_known) {
      if (w.operands_at > now_) {
        if (w.operands_at == engine::kNever) park(index);
        turn_down(index, w.operands_wait, w.operands_at);
        return false;
      }
      const Readiness r = units_readiness(*w.next, units_, now_);  // not kept: other warps' issues move it
      if (r.at > now_) {
        if (r.at == engine::kNever) park(index);
        wait(r.reason, r.at);
        return false;
      }
    }
    return issuer_.try_offer(*this, index);
  }

  Issuer& issuer_;
  const WarpGate* gates_;
  std::span<const uint32_t> live_;
  const IssueUnits& units_;
  size_t last_pos_;
  uint32_t last_slot_;
  engine::Cycle now_;
  uint64_t* parked_;
  engine::Cycle* known_waits_;
  Stall reason_ = Stall::Idle;
  engine::Cycle wake_ = engine::kNever;
};

}  // namespace gpusim::core
