// Lane tests on the hot paths. std::popcount becomes a call into libgcc on baseline x86-64
// (no POPCNT instruction assumed); lane_count is the same count inline.
#pragma once

#include <cstdint>

namespace gpusim::util {

constexpr int lane_count(uint32_t mask) {
  mask = mask - ((mask >> 1) & 0x55555555u);
  mask = (mask & 0x33333333u) + ((mask >> 2) & 0x33333333u);
  mask = (mask + (mask >> 4)) & 0x0F0F0F0Fu;
  return static_cast<int>((mask * 0x01010101u) >> 24);
}

static_assert(lane_count(0) == 0 && lane_count(0xFFFFFFFFu) == 32 && lane_count(0x80000001u) == 2 &&
              lane_count(0x0F0F0F0Fu) == 16);

// Whether 32 lanes' addresses run on `size` bytes apart from the first (without wrapping past
// the top): a full warp reading consecutive elements, the case the memory path shortcuts.
constexpr bool consecutive_lanes(const uint64_t* a, uint64_t size) {
  bool all = a[0] <= ~uint64_t{0} - 32 * size;
  for (uint64_t k = 1; k < 32; ++k) all &= a[k] == a[0] + k * size;
  return all;
}

}  // namespace gpusim::util
