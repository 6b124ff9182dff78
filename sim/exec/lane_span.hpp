// Every lane's address of a warp's memory access, and the span and shape of them that the
// executor's fast paths (memory_ops.cpp) and the bank model read.
#pragma once

#include <algorithm>
#include <cstdint>

#include "exec/executor.hpp"

namespace gpusim::exec {

constexpr uint32_t kHalfWarp = kWarpSize / 2;

// Where a warp's lanes access: their addresses (bases + offset, wrapped), the lowest and
// highest, whether any is misaligned for `bytes`, and whether they step by one stride.
struct LaneSpan {
  uint64_t lo = ~0ull, hi = 0, misaligned = 0;
  bool strided = false;  // a full warp, lane l at lo-or-hi + l * stride, no wrap-around
  bool halves = false;   // a full warp, each half-warp's lane l at its first's + l * stride (or strided)
  uint64_t stride = 0;
};

// Every lane's address, bases + offset, wrapped, and whether each half-warp steps by one
// stride (lane_span.cpp: clones for hosts with AVX2).
void lane_addresses(uint64_t* addresses, const uint64_t* bases, uint64_t offset, uint64_t wrap);
void lane_addresses(uint64_t* addresses, const uint32_t* bases, uint64_t offset, uint64_t wrap);
bool each_half_steps_by(const uint64_t* addresses, uint64_t stride);

// `bases`: 64-bit lanes, or a 32-bit register's (zero-extended, as gather() would).
// Compiled into each caller (load_store and atomic): as a call, 1.2% more host instructions on
// the Hopper matmul (an external template, and a static one with two callers, both stayed calls).
template <typename Base>
[[gnu::always_inline]] static inline LaneSpan lane_span(uint64_t* addresses, const Base* bases, uint32_t mask,
                                                        uint64_t offset, uint64_t wrap, uint32_t bytes) {
  LaneSpan s;
  if (mask == 0xFFFFFFFFu) {
    // A full warp (the common case): counted loops without min/max, which vectorise, and the
    // span from the ends of each half-warp when each forms a progression (consecutive, uniform
    // or strided). A stride of at most 2^32 either way cannot wrap past 2^64 unseen.
    lane_addresses(addresses, bases, offset, wrap);
    const uint64_t first = addresses[0], last = addresses[kWarpSize - 1];
    const uint64_t stride = addresses[1] - first;
    const auto step = static_cast<int64_t>(stride);
    // Each half-warp one progression of the same stride (the whole warp, or two rows of a
    // 16-wide block, as tiled kernels index shared memory), none wrapping past 2^64.
    const uint64_t mid_end = addresses[kHalfWarp - 1], mid = addresses[kHalfWarp];
    if (each_half_steps_by(addresses, stride) && step >= -(int64_t{1} << 32) && step <= (int64_t{1} << 32) && (step >= 0) == (mid_end >= first) &&
        (step >= 0) == (last >= mid)) {
      s.strided = mid - mid_end == stride;
      s.halves = true;
      s.stride = stride;
      s.lo = std::min({first, mid_end, mid, last});
      s.hi = std::max({first, mid_end, mid, last});
      s.misaligned = (first | mid | stride) & (bytes - 1);
      return s;
    }
    // Computed already: the span from the addresses (alignment in a loop of its own, which
    // vectorises; SSE2 has no 64-bit min or max).
    for (uint32_t l = 0; l < kWarpSize; ++l) s.misaligned |= addresses[l] & (bytes - 1);
    for (uint32_t l = 0; l < kWarpSize; ++l) {
      s.lo = std::min(s.lo, addresses[l]);
      s.hi = std::max(s.hi, addresses[l]);
    }
    return s;
  }
  for_each_lane(mask, [&](uint32_t lane) {
    const uint64_t a = (uint64_t{bases[lane]} + offset) & wrap;
    addresses[lane] = a;
    s.lo = std::min(s.lo, a);
    s.hi = std::max(s.hi, a);
    s.misaligned |= a & (bytes - 1);
  });
  return s;
}

}  // namespace gpusim::exec
