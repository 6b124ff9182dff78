// A warp's scoreboard: the registers with a write still in flight, as in hardware a
// small table rather than a time per register. An arithmetic write's cycle is known at
// issue; a load's is not until the memory system's response arrives. A full table holds
// back instructions that write.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>

#include "core/instruction_class.hpp"
#include "engine/event_queue.hpp"

namespace gpusim::core {

class Scoreboard {
 public:
  static constexpr int kEntries = 32;
  // Tickets: what a pending write waits for.
  static constexpr uint32_t kArithmetic = 0;   // a result due at a known cycle
  static constexpr uint32_t kMemoryKnown = 1;  // shared-memory data due at a known cycle
  static constexpr uint32_t kOperand = 2;      // a parameter or constant due at a known cycle (an operand in SASS)
  static constexpr uint32_t kFirstLoad = 3;    // from here: a load whose response is awaited

  struct Wait {
    engine::Cycle at = 0;            // when the instruction's operands are ready (kNever: a load not yet back)
    uint32_t ticket = kArithmetic;   // what the last of them waits for
    bool from_memory() const { return ticket != kArithmetic; }  // memory of any kind, not arithmetic
    bool from_load() const { return ticket >= kFirstLoad; }     // a global or local load
    // A value a load brought (global, local or shared; not a parameter or constant).
    bool loaded() const { return ticket == kMemoryKnown || ticket >= kFirstLoad; }
  };

  void clear() {
    count_ = 0;
    pending_mask_ = 0;
    earliest_ = engine::kNever;
  }

  // When `t` can read its operands (and overwrite its destinations without overtaking a
  // pending write to them, unless `renamed`: ptxas gives each unrolled copy its own registers).
  Wait operands(const InstructionTiming& t, bool renamed = false) const {
    const auto uses = [&](uint32_t reg) {
      for (uint32_t r : t.reads)
        if (r == reg) return true;
      if (!renamed)
        for (uint32_t r : t.writes)
          if (r == reg) return true;
      return false;
    };
    Wait w;
    const uint64_t touched = t.reads_mask | (renamed ? 0 : t.writes_mask);
    // Most instructions touch no register with a write in flight: no entry to look at (the
    // table's fullness asked only then).
    if (!(pending_mask_ & touched) && !full_for(t)) return w;
    for (int i = 0; i < count_; ++i) {
      const Pending& p = entries_[static_cast<size_t>(i)];
      if (!(touched >> (p.reg % 64) & 1u)) continue;  // the summary rules it out
      // A compare's predicate read as an operand is ready before a guard may read it.
      const engine::Cycle at = p.reg == t.early_reg && p.at != engine::kNever ? p.at - std::min<engine::Cycle>(p.at, t.early_by) : p.at;
      if (at > w.at && uses(p.reg)) {
        w = {at, p.ticket};
      }
    }
    // A full table takes no new write until its first entry arrives.
    if (full_for(t) && earliest_ > w.at) w = {earliest_, kArithmetic};
    return w;
  }

  // Issue of `t` at `now`: arrived writes leave the table, then `t`'s writes enter it,
  // ready at `ready` (kNever for a load, until `arrived(ticket)`).
  void issue(const InstructionTiming& t, engine::Cycle now, engine::Cycle ready, uint32_t ticket) {
    const uint64_t overlap = pending_mask_ & t.writes_mask;  // entries `t` may rewrite
    if (earliest_ <= now || overlap) compact(t, now, overlap);  // else every entry stays
    if (ready <= now) return;  // nothing in flight
    add_writes(t, ticket, ready);
  }

  // What `t`, set aside now, waits for: the time its operands from issued instructions are
  // ready (`known`), and the tickets of loads and set-aside instructions still pending.
  // As many tickets are noted as `waits` holds.
  void dependencies(const InstructionTiming& t, engine::Cycle& known, std::span<uint32_t> waits) const {
    if (!(pending_mask_ & t.reads_mask)) return;
    size_t n = 0;
    for (int i = 0; i < count_; ++i) {
      const Pending& p = entries_[static_cast<size_t>(i)];
      if (!(t.reads_mask >> (p.reg % 64) & 1u)) continue;  // the summary rules most out
      bool read = false;
      for (uint32_t r : t.reads) read |= r == p.reg;  // an entry's register is never kNoReg (add_writes)
      if (!read) continue;
      if (p.at != engine::kNever) known = std::max(known, p.at);
      else if (n < waits.size() && std::find(waits.begin(), waits.begin() + static_cast<long>(n), p.ticket) == waits.begin() + static_cast<long>(n))
        waits[n++] = p.ticket;
    }
  }
  // Room for the writes of one more instruction.
  bool has_room(const InstructionTiming& t) const {
    int writes = 0;
    for (uint32_t r : t.writes) writes += r != kernel::kNoReg;
    return count_ + writes <= kEntries;
  }
  // `t` is set aside: its writes are pending until `ticket` resolves; they replace the
  // pending writes of the same registers (later readers read `t`'s value).
  void defer(const InstructionTiming& t, uint32_t ticket) {
    // Unrolled copies write registers of their own: mostly no entry to replace, none to move.
    if (const uint64_t overlap = pending_mask_ & t.writes_mask)
      drop_if([&](const Pending& p) { return rewritten(t, overlap, p); });
    add_writes(t, ticket, engine::kNever);
  }
  // The set-aside instruction `ticket` issued: its writes are ready at `at`, or, for a load
  // (`at` kNever), when `then`'s response arrives.
  void resolve(uint32_t ticket, engine::Cycle at, uint32_t then) {
    for (int i = 0; i < count_; ++i) {
      Pending& p = entries_[static_cast<size_t>(i)];
      if (p.ticket != ticket || p.at != engine::kNever) continue;
      p.ticket = at == engine::kNever ? then : (then == kMemoryKnown || then == kOperand ? then : kArithmetic);
      p.at = at;
      earliest_ = std::min(earliest_, at);
    }
  }

  // The load `ticket` is back at `now`: its registers are ready. False when no entry
  // waited for it (the warp has gone).
  bool arrived(uint32_t ticket, engine::Cycle now) {
    bool any = false;
    for (int i = 0; i < count_; ++i) {
      Pending& p = entries_[static_cast<size_t>(i)];
      if (p.ticket == ticket && p.at == engine::kNever) {
        p.at = now;
        earliest_ = std::min(earliest_, now);
        any = true;
      }
    }
    return any;
  }

 private:
  // Whether the table is full and `t` writes: it must wait for an entry to leave.
  bool full_for(const InstructionTiming& t) const { return count_ == kEntries && t.writes[0] != kernel::kNoReg; }
  // Drops the arrived writes and those `t` rewrites (`overlap`: their registers' summary).
  void compact(const InstructionTiming& t, engine::Cycle now, uint64_t overlap) {
    drop_if([&](const Pending& p) { return p.at <= now || rewritten(t, overlap, p); });
  }
  struct Pending {
    uint32_t reg;
    uint32_t ticket;  // kArithmetic, kMemoryKnown, kOperand, or the load it waits for
    engine::Cycle at;
  };
  // Whether `t` writes p's register (`overlap`: the summary of the registers it may rewrite).
  static bool rewritten(const InstructionTiming& t, uint64_t overlap, const Pending& p) {
    if (!(overlap >> (p.reg % 64) & 1u)) return false;
    bool writes = false;
    for (uint32_t r : t.writes) writes |= r == p.reg;
    return writes;
  }
  // Keeps the entries `drop` does not name, in order, with the summary and earliest time redone.
  template <class Drop>
  void drop_if(Drop drop) {
    int kept = 0;
    pending_mask_ = 0;
    earliest_ = engine::kNever;
    for (int i = 0; i < count_; ++i) {
      const Pending& p = entries_[static_cast<size_t>(i)];
      if (!drop(p)) keep(kept, p);
    }
    count_ = kept;
  }
  // Enters `t`'s writes (kNoReg-terminated), as many as the table has room for.
  void add_writes(const InstructionTiming& t, uint32_t ticket, engine::Cycle at) {
    for (uint32_t reg : t.writes) {
      if (reg == kernel::kNoReg) return;
      if (count_ < kEntries) keep(count_, {reg, ticket, at});
    }
  }
  // Puts `p` at `index` (and advances it), noting its register in the summary.
  void keep(int& index, const Pending& p) {
    entries_[static_cast<size_t>(index++)] = p;
    pending_mask_ |= uint64_t{1} << (p.reg % 64);
    earliest_ = std::min(earliest_, p.at);
  }
  int count_ = 0;
  uint64_t pending_mask_ = 0;  // register_mask of the entries' registers
  engine::Cycle earliest_ = engine::kNever;  // the entries' earliest time (kept exact: an entry's only ever comes forward)
  std::array<Pending, kEntries> entries_{};
};

}  // namespace gpusim::core
