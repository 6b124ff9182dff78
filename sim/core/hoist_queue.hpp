// ptxas unrolls a loop and hoists the loads of all its copies above the first copy's use of
// them (SASS of column_sums, scan_serial: 16 loads, then the adds), so one warp keeps the
// loads of several trips in flight. gpusim issues PTX in order, one trip at a time. So a
// warp whose next instruction waits for memory sets it aside here - it has executed; only
// its issue waits - and goes on issuing what follows, as the unrolled SASS would, until
// `scheduling.ptxas_unroll` loop trips have passed; then what it set aside issues, in order,
// before anything new. Barriers, atomics, fences and exits wait until it is empty, as does
// a load that ptxas could not move above a store set aside (core/pointer_roots.hpp).
#pragma once

#include <emmintrin.h>  // SSE2, which every x86-64 host has

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <vector>

#include "core/instruction_class.hpp"
#include "engine/event_queue.hpp"
#include "exec/executor.hpp"
#include "util/bits.hpp"

namespace gpusim::core {

// An executed instruction whose issue waits.
struct DeferredOp {
  // Not `= default`: push() value-initialises, which would zero the whole op before setting
  // its members.
  DeferredOp() {}  // NOLINT(modernize-use-equals-default)
  const InstructionTiming* timing = nullptr;
  uint32_t ticket = 0;          // what the scoreboard entries of its writes wait for
  uint32_t lanes = 0;           // step.addresses set: where the queue keeps them (addresses())
  engine::Cycle known = 0;      // its operands written by issued instructions are ready then
  // Loads and set-aside instructions it still waits for (0: none), at most kMaxWaits; the
  // last two entries stay 0, so that a search compares eight at once (resolve()).
  static constexpr size_t kMaxWaits = 6;
  std::array<uint32_t, 8> waits{};
  exec::StepResult step;        // what executing it gave; its lane addresses, if any, in the queue
  uint64_t first_address = 0;   // lanes kOneRun: lane 0's address

  // When it can issue, as far as is known now (kNever: a response or another one first).
  engine::Cycle ready_at() const {
    for (uint32_t w : waits)
      if (w != 0) return engine::kNever;
    return known;
  }
};

class HoistQueue {
 public:
  static constexpr uint32_t kFirstTicket = 0x80000000u;  // above every load ticket of an SM
  static constexpr size_t kCapacity = 128;                // set-aside instructions, at most

  bool empty() const { return head_ == end_; }
  bool full() const { return end_ - head_ >= kCapacity; }
  const DeferredOp& front() const { return ops_[head_]; }
  uint32_t next_ticket() { return next_ticket_++; }

  void clear() {
    ops_.clear();
    lanes_.clear();
    head_ = 0;
    end_ = 0;
    trips_ = 0;
    closed_ = false;
  }
  DeferredOp& push() {
    if (empty()) trips_ = 0;
    ops_.emplace_back();
    ++end_;
    return ops_.back();
  }
  void pop() {
    if (++head_ == end_) clear();
  }
  // Keeps the lane addresses of `op`, one per lane of the warp (the executor reuses its buffer).
  // Apart from the ops, so that the arithmetic a warp sets aside, most of what it sets aside,
  // does not carry room for them: 256 bytes an op, host memory touched and faulted in. Lanes
  // that are one run (util::consecutive_lanes: lane l at lane 0's address + l x
  // op.step.access_bytes, as a coalesced access's are) keep lane 0's alone: written again at
  // issue into a buffer the SM keeps warm, instead of 256 bytes written here and read back
  // then, each line a host cache miss.
  void keep_addresses(DeferredOp& op, const uint64_t* addresses) {
    if (util::consecutive_lanes(addresses, op.step.access_bytes)) {
      op.lanes = kOneRun;
      op.first_address = addresses[0];
      return;
    }
    op.lanes = static_cast<uint32_t>(lanes_.size());
    std::copy_n(addresses, kLanes, lanes_.emplace_back().address.begin());
  }
  // `op`'s lane addresses: the queue's, or, for one run, written into `run` (a lane each).
  const uint64_t* addresses(const DeferredOp& op, uint64_t* run) const {
    if (op.lanes != kOneRun) return lanes_[op.lanes].address.data();
    for (uint64_t l = 0, at = op.first_address; l < kLanes; ++l, at += op.step.access_bytes) run[l] = at;
    return run;
  }
  // A loop trip has passed (a taken backward branch); after `unroll` with something set
  // aside the unrolled body is over and the warp issues what waits.
  void trip_passed(int unroll) {
    if (!empty() && ++trips_ >= unroll) closed_ = true;
  }
  bool closed() const { return closed_; }
  // ptxas schedules only so many loads ahead of the first use of a loaded value (its SASS
  // streaming loops issue 5-17 before one: validate/sass_structure.py). So once a warp has
  // issued `window` loads since it last issued an instruction that used one, what it set
  // aside issues before anything more, and nothing more is set aside until then.
  void load_issued(int window) {
    if (window > 0 && ++loads_since_use_ >= window && !empty()) closed_ = true;
  }
  bool window_full(int window) const { return window > 0 && loads_since_use_ >= window; }
  void value_used() { loads_since_use_ = 0; }
  // Whether `t`, at the warp's PC, must wait behind what is set aside: nothing issues past the
  // unrolled body, nor past a fence, nor a load past a store ptxas cannot tell apart.
  // With `branch_order` (a taken branch costs time: latencies.taken_branch), a back branch that
  // ends the body (every one of a loop ptxas does not unroll) issues after what was set aside,
  // as in SASS, where it comes last (loop_cost.py: a branch after a load's use costs the trip
  // more than one under the load). The body counts from what the warp set aside first, so a
  // load window's wait starts a new one (corpus column_sums, docs/validation.md session 16).
  bool holds_back(const InstructionTiming& t, bool branch_order) const {
    return !empty() && (closed_ || t.hoist_fence || (branch_order && ends_body(t)) ||
                        (t.is_memory && !t.is_store && holds_store_before(t)));
  }
  bool ends_body(const InstructionTiming& t) const {
    return t.closes_loop && (t.unroll_trips <= 1 || trips_ + 1 >= t.unroll_trips);
  }

  // `ticket` (a load, or a set-aside instruction that issued) is done: ready at `at`, or when
  // `then` arrives (a set-aside load that issued: its response). True when one waited for it.
  bool resolve(uint32_t ticket, engine::Cycle at, uint32_t then) {
    bool any = false;
    const __m128i want = _mm_set1_epi32(static_cast<int>(ticket));
    for (size_t i = head_; i < end_; ++i) {
      std::array<uint32_t, 8>& waits = ops_[i].waits;
      // All eight compared at once, four to an SSE2 compare; most hold no match.
      const __m128i lo = _mm_cmpeq_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(waits.data())), want);
      const __m128i hi = _mm_cmpeq_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(waits.data() + 4)), want);
      auto hits = static_cast<uint32_t>(_mm_movemask_ps(_mm_castsi128_ps(lo)) |
                                        _mm_movemask_ps(_mm_castsi128_ps(hi)) << 4);
      if (hits == 0) continue;
      any = true;
      for (; hits; hits &= hits - 1) {
        uint32_t& w = waits[static_cast<size_t>(std::countr_zero(hits))];
        if (at == engine::kNever) {
          w = then;
        } else {
          w = 0;
          ops_[i].known = std::max(ops_[i].known, at);
        }
      }
    }
    return any;
  }

  // Whether the load `t` must stay behind a store set aside: ptxas keeps a load below a
  // store it cannot tell apart (same space, or generic, and not provably another base).
  bool holds_store_before(const InstructionTiming& t) const {
    if (t.passes_stores) return false;
    for (size_t i = head_; i < end_; ++i) {
      const InstructionTiming& s = *ops_[i].timing;
      if (!s.is_store) continue;
      const bool spaces_differ = s.space != t.space && s.space != kernel::StateSpace::Generic &&
                                 t.space != kernel::StateSpace::Generic;
      if (spaces_differ) continue;
      if (s.root == 0 || s.root != t.root) return true;
    }
    return false;
  }

 private:
  static constexpr size_t kLanes = exec::kWarpSize;  // the executor's address buffer, a lane each
  static constexpr uint32_t kOneRun = ~0u;           // DeferredOp::lanes: one run from first_address
  struct Lanes {
    Lanes() {}  // NOLINT(modernize-use-equals-default): `= default` would zero them, to be overwritten
    std::array<uint64_t, kLanes> address;
  };
  std::vector<DeferredOp> ops_;
  size_t head_ = 0;
  size_t end_ = 0;  // ops_.size(), kept: a DeferredOp's size is no power of two, so size() divides
  int trips_ = 0;
  int loads_since_use_ = 0;  // loads issued since an instruction that used a loaded value
  bool closed_ = false;
  uint32_t next_ticket_ = kFirstTicket;
  std::vector<Lanes> lanes_;  // the set-aside memory accesses' lane addresses, in order
};

}  // namespace gpusim::core
