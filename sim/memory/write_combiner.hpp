// The lines an SM stored to in the last few cycles (micro_store_merge_*): a store into one of
// them merges with the write still held for it, so neither its sectors' data stage nor the L2
// sees it again. On the H100 one warp's six stores into the same 24 sectors cost 8.5 cycles
// each where one such store alone costs 33, and at 64 warps per SM they take the L2 a third of
// the time that six separate partial writes per sector would. Held writes leave in the order
// they were opened: when `lines` newer ones push the oldest out, or `window` cycles after the
// store that opened it (0: no limit).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/event_queue.hpp"

namespace gpusim::memory {

class WriteCombiner {
 public:
  WriteCombiner(int lines, int window) : capacity_(static_cast<size_t>(lines)), window_(window) {
    held_.reserve(capacity_);
  }

  bool enabled() const { return capacity_ > 0; }
  // Whether a write for `line` is still held at `now` (the store merges); if not, the store
  // opens one. A merge does not keep a write longer.
  bool store(uint64_t line, engine::Cycle now);
  // One store instruction's lines, looked up together: merged[i] says whether lines[i] was
  // held before it; the others open writes, in order.
  void store(const std::vector<uint64_t>& lines, engine::Cycle now, std::vector<bool>& merged);
  // A kernel's stores have all left when the next starts.
  void clear() { held_.clear(); }

 private:
  void expire(engine::Cycle now);  // drops the writes whose window has passed
  bool holds(uint64_t line) const;
  void open(uint64_t line, engine::Cycle now);
  struct Held {
    uint64_t line;
    engine::Cycle leaves;
  };
  size_t capacity_;
  engine::Cycle window_;
  std::vector<Held> held_;  // oldest first
};

}  // namespace gpusim::memory
