// What LRU and FIFO share: each way carries a stamp, and a full set gives up the way with the
// oldest one. They differ only in which events stamp a way.
#pragma once

#include <vector>

#include "memory/cache/replacement.hpp"
#include "util/bytes.hpp"

namespace gpusim::memory {

class OldestStampEvicted : public ReplacementPolicy {
 public:
  OldestStampEvicted(uint64_t sets, uint32_t ways) : ways_(ways), stamp_(sets * ways) {}  // zeros, mapped with its pages where large
  uint32_t victim(uint64_t set) const final {
    const uint64_t* s = &stamp_[set * ways_];
    uint32_t oldest = 0;
    for (uint32_t i = 1; i < ways_; ++i)
      if (s[i] < s[oldest]) oldest = i;
    return oldest;
  }

 protected:
  void stamp(uint64_t set, uint32_t way) { stamp_[set * ways_ + way] = ++clock_; }
  void filled_evict_first(uint64_t set, uint32_t way) final { stamp_[set * ways_ + way] = 0; }

 private:
  uint32_t ways_;
  util::PresentZeros<uint64_t> stamp_;
  uint64_t clock_ = 0;
};

}  // namespace gpusim::memory
