// Compute capability 1.2/1.3: per half-warp, the segment (32/64/128 bytes by word size)
// around the lowest pending thread serves every thread inside it, shrunk to 64 or 32
// bytes when only half is used; repeat.
#include <algorithm>
#include <bit>

#include "memory/coalescing/align.hpp"

namespace gpusim::memory {
namespace {

void half_warp(std::vector<Transaction>& out, const uint64_t* a, uint32_t mask, int first, uint32_t size) {
  uint32_t pending = (mask >> first) & 0xFFFFu;
  const uint64_t seg = size == 1 ? 32 : size == 2 ? 64 : 128;
  while (pending) {
    const int lead = std::countr_zero(pending);
    const uint64_t base = align_down(a[first + lead], seg);
    uint64_t lo = ~0ull, hi = 0;
    for (int k = 0; k < 16; ++k) {
      if (!(pending >> k & 1u)) continue;
      const uint64_t addr = a[first + k];
      if (addr < base || addr >= base + seg) continue;
      lo = std::min(lo, addr);
      hi = std::max(hi, addr + size);
      pending &= ~(1u << k);
    }
    // Shrink 128 -> 64 -> 32 while the used bytes fit one half.
    uint64_t start = base, bytes = seg;
    while (bytes > 32) {
      const uint64_t half_bytes = bytes / 2;
      if (hi <= start + half_bytes) bytes = half_bytes;
      else if (lo >= start + half_bytes) start += half_bytes, bytes = half_bytes;
      else break;
    }
    out.push_back({start, static_cast<uint32_t>(bytes)});
  }
}


}  // namespace

GPUSIM_REGISTER(CoalescingRegistry, "cc1.2", "1.2/1.3: per half-warp, shrinking 128/64/32-byte segments",
                [] { return std::make_unique<PerHalfWarp<half_warp>>(); })

}  // namespace gpusim::memory
