// Host addresses of device memory: the ranges a block read (ReadRanges), and what the blocks
// committed so far in a round wrote (WrittenRanges). Blocks run side by side each see memory
// as the round began; a block that read nothing an earlier block of its round wrote ran as it
// would have one block after another.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "exec/store_log.hpp"

namespace gpusim::exec {

class ReadRanges {
 public:
  void add(const uint8_t* from, uint64_t bytes) {
    const uintptr_t at = reinterpret_cast<uintptr_t>(from);
    if (!ranges_.empty() && ranges_.back().second == at) {  // a warp reading on from the last
      ranges_.back().second = at + bytes;
    } else {
      ranges_.emplace_back(at, at + bytes);
    }
    lo_ = std::min(lo_, at);
    hi_ = std::max(hi_, at + bytes);
  }
  void clear() {
    ranges_.clear();
    lo_ = UINTPTR_MAX;
    hi_ = 0;
  }
  const std::vector<std::pair<uintptr_t, uintptr_t>>& ranges() const { return ranges_; }  // [begin, end)
  uintptr_t lo() const { return lo_; }
  uintptr_t hi() const { return hi_; }

 private:
  std::vector<std::pair<uintptr_t, uintptr_t>> ranges_;
  uintptr_t lo_ = UINTPTR_MAX, hi_ = 0;
};

// Kept as the set of 128-byte granules written: a read meets a write when they share one
// (a granule a block both wrote and read of another's only costs that block a second run).
class WrittenRanges {
 public:
  void add(const StoreLog& log) {
    uintptr_t last = kEmpty;  // a warp's lanes mostly write one granule: taken once
    log.for_each([this, &last](const uint8_t* to, uint32_t bytes) {
      const uintptr_t at = reinterpret_cast<uintptr_t>(to);
      const uintptr_t first_granule = at >> kGranuleBits, last_granule = (at + bytes - 1) >> kGranuleBits;
      if (first_granule == last && last_granule == last) return;
      lo_ = std::min(lo_, first_granule << kGranuleBits);  // whole granules, so that the
      hi_ = std::max(hi_, (last_granule + 1) << kGranuleBits);  // one taken once is inside
      for (uintptr_t g = first_granule; g <= last_granule; ++g) insert(g);
      last = last_granule;
    });
  }
  // Whether any range `reads` holds meets a written one.
  bool meets(const ReadRanges& reads) const {
    if (count_ == 0 || reads.hi() <= lo_ || reads.lo() >= hi_) return false;
    for (const auto& [begin, end] : reads.ranges()) {
      if (end <= lo_ || begin >= hi_) continue;
      for (uintptr_t g = begin >> kGranuleBits; g <= (end - 1) >> kGranuleBits; ++g)
        if (contains(g)) return true;
    }
    return false;
  }
  void clear() {
    if (count_ > 0) std::fill(slots_.begin(), slots_.end(), kEmpty);
    count_ = 0;
    lo_ = UINTPTR_MAX;
    hi_ = 0;
  }

 private:
  static constexpr int kGranuleBits = 7;
  static constexpr uintptr_t kEmpty = UINTPTR_MAX;
  static size_t hash(uintptr_t g) { return static_cast<size_t>(g * 0x9E3779B97F4A7C15ull >> 20); }
  bool contains(uintptr_t g) const {
    const size_t mask = slots_.size() - 1;
    for (size_t i = hash(g) & mask;; i = (i + 1) & mask) {
      if (slots_[i] == g) return true;
      if (slots_[i] == kEmpty) return false;
    }
  }
  void insert(uintptr_t g) {
    if (2 * (count_ + 1) > slots_.size()) grow();
    const size_t mask = slots_.size() - 1;
    for (size_t i = hash(g) & mask;; i = (i + 1) & mask) {
      if (slots_[i] == g) return;
      if (slots_[i] == kEmpty) {
        slots_[i] = g;
        ++count_;
        return;
      }
    }
  }
  void grow() {
    std::vector<uintptr_t> old(std::max<size_t>(64, 2 * slots_.size()), kEmpty);
    old.swap(slots_);
    count_ = 0;
    for (uintptr_t g : old)
      if (g != kEmpty) insert(g);
  }

  std::vector<uintptr_t> slots_;  // open addressing; a power of two long, at most half full
  size_t count_ = 0;
  uintptr_t lo_ = UINTPTR_MAX, hi_ = 0;  // the written granules lie in [lo_, hi_)
};

}  // namespace gpusim::exec
