// The hierarchy's shared part: what an SM's requests leave to the L2 and DRAM (`below`),
// done at settle() in the order sent, cycle by cycle for an SM that ran ahead, and the L1
// fills' times given back to the SM's side.
#include "memory/impl/hierarchy.hpp"

#include <algorithm>
#include <span>

namespace gpusim::memory {

void MemoryHierarchy::settle(uint32_t sm) {
  Sm& s = sms_[sm];
  if (pulled(sm)) {  // writes nothing of `s` (see Sm)
    settle_pulled(sm, s.below.size());
    return;
  }
  if (s.counted) {  // the SM's side's counts
    for (const auto& c : MemoryStats::counters()) stats_.*c.member += s.front.*c.member;
    s.front = MemoryStats{};
    s.counted = false;
  }
  if (!s.below.empty()) settle_below(sm);
}

void MemoryHierarchy::settle_through(uint32_t sm, engine::Cycle cycle) {
  if (!pulled(sm)) return settle(sm);  // only an SM in a batch runs ahead
  const Sm& s = sms_[sm];
  size_t to = s.below.size();
  for (const Sm::CycleStart& c : s.starts)
    if (c.cycle > cycle) {
      to = c.index;
      break;
    }
  settle_pulled(sm, to);
}

engine::Cycle MemoryHierarchy::lookahead() const {
  // Without an L2 (1.x) every read is a DRAM access: answered no sooner than its latency
  // after the cycle it was sent in (Dram::access), and a write answers nothing.
  if (!l2_) return static_cast<engine::Cycle>(std::max(1, config_.dram.latency));
  // An L2 read answers no sooner than its latency after it arrives, and the nearest SM's
  // path takes off at most its (negative) share; an L1 hit is answered on the SM's side.
  int nearest = 0;
  for (uint32_t sm = 0; sm < sms_.size(); ++sm) nearest = std::min(nearest, config_.l2->path_cycles(sm));
  return static_cast<engine::Cycle>(std::max(1, config_.l2->latency + nearest));
}

void MemoryHierarchy::settle_until(std::span<const uint32_t> sms, engine::Cycle end) {
  // Each SM's unsettled cycles before `end`, merged by (cycle, SM).
  quantum_.clear();
  engine::Cycle first = end;
  for (uint32_t sm : sms) {
    if (!pulled(sm)) {
      settle(sm);
      continue;
    }
    const Sm& s = sms_[sm];
    const auto from = static_cast<size_t>(settled_[sm] - s.cleared);
    for (size_t k = 0; k < s.starts.size() && s.starts[k].cycle < end; ++k) {
      const size_t to = k + 1 < s.starts.size() ? s.starts[k + 1].index : s.below.size();
      if (to <= from) continue;
      quantum_.push_back({s.starts[k].cycle, sm, 0, to});
      first = std::min(first, s.starts[k].cycle);
    }
  }
  order_by_cycle(quantum_, first, end);
  for (const CycleOf& c : quantum_) settle_pulled(c.sm, c.to, true);
}

void MemoryHierarchy::order_by_cycle(std::vector<CycleOf>& cycles, engine::Cycle from, engine::Cycle to) {
  if (to - from > 4 * cycles.size() + 4096) {  // sparse: a count per cycle costs more than a sort
    std::stable_sort(cycles.begin(), cycles.end(), [](const CycleOf& a, const CycleOf& b) { return a.cycle < b.cycle; });
    return;
  }
  per_cycle_.assign(static_cast<size_t>(to - from) + 1, 0);
  for (const CycleOf& c : cycles) ++per_cycle_[static_cast<size_t>(c.cycle - from) + 1];
  for (size_t i = 1; i < per_cycle_.size(); ++i) per_cycle_[i] += per_cycle_[i - 1];  // each cycle's first place
  ordered_.resize(cycles.size());
  for (const CycleOf& c : cycles) ordered_[per_cycle_[static_cast<size_t>(c.cycle - from)]++] = c;
  cycles.swap(ordered_);
}

void MemoryHierarchy::begin_quantum(uint32_t sm, uint32_t slices) {
  Sm& s = sms_[sm];
  if (s.handed.size() < slices) s.handed.resize(slices);
  if (pulled(sm) && all_settled(sm)) clear_settled(sm);  // as its first send would
  s.ahead = true;
}

void MemoryHierarchy::hand_off(uint32_t sm, uint32_t slice) {
  Sm& s = sms_[sm];
  Sm::Handed& h = s.handed[slice];  // the last quantum's, settled: its room is reused
  h.below.clear();
  h.starts.clear();
  h.below.swap(s.below);
  h.starts.swap(s.starts);
}

void MemoryHierarchy::settle_handed(std::span<const uint32_t> sms, uint32_t slice, engine::Cycle from,
                                    engine::Cycle to) {
  fronts_kept_ = true;
  quantum_.clear();
  for (uint32_t sm : sms) {
    const Sm::Handed& h = sms_[sm].handed[slice];
    for (size_t k = 0; k < h.starts.size(); ++k) {
      const size_t end = k + 1 < h.starts.size() ? h.starts[k + 1].index : h.below.size();
      if (end > h.starts[k].index) quantum_.push_back({h.starts[k].cycle, sm, h.starts[k].index, end});
    }
  }
  order_by_cycle(quantum_, from, to);
  for (const CycleOf& c : quantum_)
    do_below(c.sm, std::span<const Below>(sms_[c.sm].handed[slice].below).subspan(c.from, c.to - c.from), true);
}

void MemoryHierarchy::end_quantum(std::span<const uint32_t> sms) {
  for (uint32_t sm : sms) sms_[sm].ahead = false;
  respond_kept(sms);
}

void MemoryHierarchy::settle_pulled(uint32_t index, size_t to, bool keep) {
  fronts_kept_ = true;  // its counts stay in its `front`
  const Sm& s = sms_[index];
  const auto from = static_cast<size_t>(settled_[index] - s.cleared);
  if (from >= to) return;
  do_below(index, std::span<const Below>(s.below).subspan(from, to - from), keep);
  settled_[index] = s.cleared + to;
}

void MemoryHierarchy::rerouting(uint32_t sm) {
  // A pulled SM's last cycles, which its next send would clear: settled (if they are not yet)
  // and cleared now, as a settle that does not pull does.
  if (!pulled(sm)) return;
  settle_pulled(sm, sms_[sm].below.size());
  clear_settled(sm);
}

void MemoryHierarchy::clear_settled(uint32_t sm) {
  Sm& s = sms_[sm];
  s.cleared += s.below.size();
  s.below.clear();
  s.starts.clear();
  if (!s.fills.empty()) resolve_fills(sm);
}

void MemoryHierarchy::settle_below(uint32_t index) {
  do_below(index, sms_[index].below, false);
  sms_[index].below.clear();
  resolve_fills(index);
}

void MemoryHierarchy::do_below(uint32_t index, std::span<const Below> steps, bool keep) {
  Sm& sm = sms_[index];
  std::vector<engine::Cycle>& fill_at = fill_at_[index];  // (a fill's first step is a Read)
  // The answer's time, as far as the request's steps so far go (a span starts with a request).
  engine::Cycle ready = 0;
  for (const Below& b : steps) switch (b.op) {
      case Below::Op::Read:
      case Below::Op::ReadFill: {
        const engine::Cycle arrives = from_l2(index, l2_->read(b.address, index, b.at, b.flag));
        if (b.n != kNoFill) {  // (b.at: the fill's departure)
          if (b.n >= fill_at.size()) fill_at.resize(b.n + 1, 0);
          fill_at[b.n] = std::max(fill_at[b.n], std::max(b.at, arrives));
          if (b.op == Below::Op::ReadFill) ready = std::max(ready, fill_at[b.n]);
        } else {
          ready = std::max(ready, arrives);
        }
        if (sm.mshrs.limited())  // the line's register is held until its last sector is back
          for (Departed& d : sm.departed)
            if (d.line == line_of(b.address)) d.arrives = std::max(d.arrives, arrives);
        break;
      }
      case Below::Op::Dram: {
        const engine::Cycle done = dram_.access(b.address, b.n, b.flag, b.at);
        if (!b.flag) ready = std::max(ready, done);
        break;
      }
      case Below::Op::WriteRequest: l2_->write_request(b.address, b.at); break;
      case Below::Op::Write:
        writes_acked_ = std::max(writes_acked_, from_l2(index, l2_->write(b.address, b.flag, index, b.at)));
        break;
      case Below::Op::Atomic:
        ready = std::max(ready, from_l2(index, l2_->atomic(b.address, b.value, b.n, b.flag, index, b.at)));
        break;
      case Below::Op::WaitFill: ready = std::max(ready, fill_at[b.n]); break;
      case Below::Op::Respond:
        if (keep) respond_later(index, b.value, std::max(ready, b.at) + b.n, b.address);
        else respond(index, b.value, std::max(ready, b.at) + b.n, b.address);
        ready = 0;
        break;
      case Below::Op::Acked:
        writes_acked_ = std::max(writes_acked_, std::max(ready, b.at));
        ready = 0;
        break;
    }
}

void MemoryHierarchy::resolve_fills(uint32_t index) {
  Sm& sm = sms_[index];
  const std::vector<engine::Cycle>& at = fill_at_[index];
  for (size_t i = 0; i < sm.fills.size(); ++i) {
    const Fill& f = sm.fills[i];
    const engine::Cycle ready = i < at.size() ? std::max(f.sent, at[i]) : f.sent;
    sm.l1->resolve(f.placed, f.address, SectoredCache::placeholder(static_cast<uint32_t>(i)), ready);
  }
  sm.fills.clear();
  fill_at_[index].clear();
}

engine::Cycle MemoryHierarchy::from_l2(uint32_t sm, engine::Cycle at) const {
  return static_cast<engine::Cycle>(static_cast<int64_t>(at) + config_.l2->path_cycles(sm));
}

}  // namespace gpusim::memory
