// Global stores (and reductions: updates of a word) kept back until the end of the cycle.
// SMs that run a cycle side by side (on several threads) each log their stores, and the logs
// are applied in SM order when the cycle ends: every SM reads global memory as the last cycle
// left it, with its own stores of this cycle on top, whichever thread runs it and when. An SM
// that runs several cycles before its stores are applied (TickBatch's quantum) marks each
// cycle's, so that the logs' cycles are applied in (cycle, SM) order as cycle-by-cycle ends
// would have.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "kernel/ir.hpp"

namespace gpusim::exec {

// A reduction in the log (an atomic on global memory whose value the kernel never reads,
// exec/atomics.cpp): `how` names its operation and type (never 0, which is a store), and
// reduce_word gives its word's next value (`old` and the result: the word's bits only).
uint16_t reduction_how(kernel::AtomOp op, kernel::DataType t);
uint64_t reduce_word(uint64_t old, uint64_t operand, uint16_t how);

class StoreLog {
 public:
  // `bytes` of `data` go to host address `to` when the log is applied.
  void add(uint8_t* to, const void* data, uint32_t bytes) {
    if (bytes <= sizeof(uint64_t)) {
      uint64_t word = 0;
      std::memcpy(&word, data, bytes);
      add_word(to, word, bytes);
      return;
    }
    const bool first = entries_.empty();
    note_part();
    entries_.push_back({to, static_cast<uint32_t>(data_.size()), static_cast<uint16_t>(bytes)});
    const auto* from = static_cast<const uint8_t*>(data);
    data_.insert(data_.end(), from, from + bytes);
    const auto at = reinterpret_cast<uintptr_t>(to);
    widen(at, at + bytes, first);
  }
  // add() of the low `bytes` (at most 8) of `word`, as a little-endian host stores them: a
  // lane's store, one word kept per entry rather than bytes appended (no zeroing, no copy call).
  void add_word(uint8_t* to, uint64_t word, uint32_t bytes) { add_words(&to, &word, 1, bytes); }
  // add_word() of `n` lanes' words in the order given (a warp's store, lane by lane): the
  // log's bookkeeping once for the warp rather than per lane. Not inline: compiled into
  // Executor::load_store it made that function's other paths dearer (the stencil +0.7%).
  // With `how` (not 0), the lanes' reductions by `words` (add_reduction()).
  [[gnu::noinline]] void add_words(uint8_t* const* to, const uint64_t* words, uint32_t n, uint32_t bytes,
                                   uint16_t how = 0) {
    if (n == 0) return;
    const bool first = entries_.empty();
    note_part();
    const auto offset = static_cast<uint32_t>(words_.size());
    uintptr_t lo = reinterpret_cast<uintptr_t>(to[0]), hi = lo;
    for (uint32_t i = 0; i < n; ++i) {
      entries_.push_back({to[i], offset + i, static_cast<uint16_t>(bytes), how});
      const auto at = reinterpret_cast<uintptr_t>(to[i]);
      lo = std::min(lo, at);
      hi = std::max(hi, at);
    }
    words_.insert(words_.end(), words, words + n);
    widen(lo, hi + bytes, first);
  }
  // A lane's reduction of the `bytes` (at most 8) at `to` by `operand` (reduce_word's `how`, not
  // 0): applied in its place among the stores, on the word as they leave it.
  void add_reduction(uint8_t* to, uint64_t operand, uint32_t bytes, uint16_t how) {
    add_words(&to, &operand, 1, bytes, how);
  }
  bool empty() const { return entries_.empty(); }
  // Reads `bytes` at host address `from` into `out` as they will be once the log is applied.
  void read(const uint8_t* from, void* out, uint32_t bytes) const {
    std::memcpy(out, from, bytes);
    if (overlaps(from, bytes)) read_before(from, out, bytes, entries_.size());
  }
  // Whether any logged byte lies in [from, from + bytes).
  bool overlaps(const uint8_t* from, uint64_t bytes) const {
    const uintptr_t at = reinterpret_cast<uintptr_t>(from);
    return !entries_.empty() && at < hi_ && at + bytes > lo_;
  }
  // Calls f(host address, bytes) for each store, in the order made.
  template <class F>
  void for_each(F f) const {
    for (const Entry& e : entries_) f(e.to, e.bytes);
  }
  // Empties the log, writing nothing.
  void discard() {
    entries_.clear();
    data_.clear();
    words_.clear();
    parts_.clear();
  }
  // Writes the stores in the order made, and empties the log.
  void apply() {
    apply_range(0, entries_.size());
    discard();
  }
  // The stores added from now on are cycle `cycle`'s.
  void set_cycle(uint64_t cycle) { cycle_ = cycle; }
  // Writes the stores of `logs` (one per SM, in SM order), each cycle's of every log before
  // the next cycle's, and empties them: as if each cycle's had been applied at its end.
  struct PartOf {  // apply_in_cycle_order's scratch: log `log`'s part `part`
    uint64_t cycle;
    uint32_t log, part;
  };
  static void apply_in_cycle_order(std::span<StoreLog* const> logs, std::vector<PartOf>& scratch) {
    scratch.clear();
    for (size_t l = 0; l < logs.size(); ++l)
      for (size_t k = 0; k < logs[l]->parts_.size(); ++k)
        scratch.push_back({logs[l]->parts_[k].cycle, static_cast<uint32_t>(l), static_cast<uint32_t>(k)});
    std::sort(scratch.begin(), scratch.end(), [](const PartOf& a, const PartOf& b) {
      return a.cycle < b.cycle || (a.cycle == b.cycle && a.log < b.log);
    });
    for (const PartOf& p : scratch) logs[p.log]->apply_part(p.part);
    for (StoreLog* log : logs) log->discard();
  }

 private:
  struct Entry {
    uint8_t* to;
    uint32_t offset;   // in words_ (bytes <= 8) or data_
    uint16_t bytes;    // a warp's store is at most 512
    uint16_t how = 0;  // a reduction's (its operand in words_), or 0: a store
  };
  // read()'s bytes over memory's in `out`, as entries before `end` leave them.
  void read_before(const uint8_t* from, void* out, uint32_t bytes, size_t end) const {
    const uintptr_t at = reinterpret_cast<uintptr_t>(from);
    auto* dst = static_cast<uint8_t*>(out);
    for (size_t i = 0; i < end; ++i) {  // in order: a later store over an earlier one wins
      const Entry& e = entries_[i];
      const uintptr_t to = reinterpret_cast<uintptr_t>(e.to);
      const uintptr_t begin = std::max(to, at), stop = std::min(to + e.bytes, at + bytes);
      if (begin >= stop) continue;
      if (!e.how) {
        std::memcpy(dst + (begin - at), source(e) + (begin - to), stop - begin);
        continue;
      }
      uint64_t word = 0;  // the reduced word as the entries before it leave it
      if (begin == to && stop == to + e.bytes) {
        std::memcpy(&word, dst + (to - at), e.bytes);  // all in `out` already
      } else {  // a part: the word alone (only a larger word's entry, which holds it, looks again)
        std::memcpy(&word, e.to, e.bytes);
        read_before(e.to, &word, e.bytes, i);
      }
      word = reduce_word(word, words_[e.offset], e.how);
      std::memcpy(dst + (begin - at), reinterpret_cast<const uint8_t*>(&word) + (begin - to), stop - begin);
    }
  }
  std::vector<Entry> entries_;
  std::vector<uint8_t> data_;    // the bytes of stores of more than 8
  std::vector<uint64_t> words_;  // the others, one word each
  const uint8_t* source(const Entry& e) const {
    return e.bytes <= sizeof(uint64_t) ? reinterpret_cast<const uint8_t*>(&words_[e.offset]) : data_.data() + e.offset;
  }
  // Writes entries [first, end) in order: each run of reductions of one operation, type and
  // size at once (reduce_run).
  void apply_range(size_t first, size_t end) const {
    for (size_t i = first; i < end;) {
      const Entry& e = entries_[i];
      if (!e.how) {
        write(e);
        ++i;
        continue;
      }
      size_t run_end = i + 1;
      while (run_end < end && entries_[run_end].how == e.how && entries_[run_end].bytes == e.bytes) ++run_end;
      reduce_run(i, run_end);
      i = run_end;
    }
  }
  // Applies reductions [first, end), which share their `how` and size, each to its word as the
  // ones before it leave it; the update is chosen once for them (exec/atomics.cpp: reduce_word
  // per entry cost micro_atomics_global's functional run about 45 host instructions a lane).
  void reduce_run(size_t first, size_t end) const;
  // Copies a store's bytes to their place; a lane's word in a move of its size, not a copy call.
  void write(const Entry& e) const {
    const uint8_t* from = source(e);
    switch (e.bytes) {
      case 1: *e.to = *from; break;
      case 2: std::memcpy(e.to, from, 2); break;
      case 4: std::memcpy(e.to, from, 4); break;
      case 8: std::memcpy(e.to, from, 8); break;
      default: std::memcpy(e.to, from, e.bytes); break;
    }
  }
  void note_part() {
    if (parts_.empty() || parts_.back().cycle != cycle_) parts_.push_back({cycle_, entries_.size()});
  }
  // The logged range, with entries just added over [lo, end) (`first`: the log was empty).
  void widen(uintptr_t lo, uintptr_t end, bool first) {
    lo_ = first ? lo : std::min(lo_, lo);
    hi_ = first ? end : std::max(hi_, end);
  }
  uintptr_t lo_ = 0, hi_ = 0;  // the logged bytes lie in [lo_, hi_)
  struct Part {
    uint64_t cycle;
    size_t first;  // in entries_
  };
  std::vector<Part> parts_;
  uint64_t cycle_ = 0;
  void apply_part(size_t part) {  // its stores in the order made
    apply_range(parts_[part].first, part + 1 < parts_.size() ? parts_[part + 1].first : entries_.size());
  }
};

}  // namespace gpusim::exec
