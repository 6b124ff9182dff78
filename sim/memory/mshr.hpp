// Miss-status holding registers: a fixed number of entries, each held by one miss from
// the cycle it is sent until its data returns. A miss that finds them all held waits for
// the first to free; a load/store unit whose L1 has none free stops issuing loads.
// Capacity 0 means no limit (every call answers `now`).
#pragma once

#include <cstdint>
#include <vector>

#include "engine/event_queue.hpp"

namespace gpusim::memory {

class MshrFile {
 public:
  explicit MshrFile(int capacity) : release_(static_cast<size_t>(capacity), 0) {}

  bool limited() const { return !release_.empty(); }
  // The first cycle from `now` at which an entry is free.
  engine::Cycle free_at(engine::Cycle now) const;
  // Takes the entry that frees first (at the cycle free_at(now) answers) and returns
  // its index, held until release() sets when it frees.
  size_t acquire(engine::Cycle now);
  void release(size_t entry, engine::Cycle at) { release_[entry] = at; }
  // Entries held at `now`.
  int held(engine::Cycle now) const;

 private:
  std::vector<engine::Cycle> release_;  // per entry: when it is free again
};

}  // namespace gpusim::memory
