// Helpers the coalescing rules share.
#pragma once

#include <cstdint>
#include <vector>

#include "memory/coalescing/rule.hpp"

namespace gpusim::memory {

inline uint64_t align_down(uint64_t a, uint64_t n) { return a / n * n; }

// A 1.x rule: the two half-warps of a warp are coalesced separately, each by `HalfWarp`
// (out, addresses, mask, first lane, bytes per lane).
template <void (*HalfWarp)(std::vector<Transaction>&, const uint64_t*, uint32_t, int, uint32_t)>
class PerHalfWarp final : public CoalescingRule {
 public:
  void coalesce(std::vector<Transaction>& out, const uint64_t* a, uint32_t mask, uint32_t size, bool,
                bool) const override {
    out.clear();
    HalfWarp(out, a, mask, 0, size);
    HalfWarp(out, a, mask, 16, size);
  }
};

}  // namespace gpusim::memory
