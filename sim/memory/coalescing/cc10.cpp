// Compute capability 1.0/1.1 (CUDA C Programming Guide, "Global Memory", 1.x): per
// half-warp, one 64/128/2x128-byte transaction only when thread k reads word k of an
// aligned segment, else one transaction per thread.
#include <bit>

#include "memory/coalescing/align.hpp"

namespace gpusim::memory {
namespace {

void half_warp(std::vector<Transaction>& out, const uint64_t* a, uint32_t mask, int first, uint32_t size) {
  const uint32_t half = (mask >> first) & 0xFFFFu;
  if (!half) return;
  const uint64_t segment = 16ull * size;
  const int lead = std::countr_zero(half);
  const uint64_t base = a[first + lead] - static_cast<uint64_t>(lead) * size;
  bool coalesced = base % segment == 0 && (size == 4 || size == 8 || size == 16);
  for (int k = 0; k < 16 && coalesced; ++k)
    if ((half >> k & 1u) && a[first + k] != base + static_cast<uint64_t>(k) * size) coalesced = false;
  if (coalesced) {
    if (size == 16) {
      out.push_back({base, 128});
      out.push_back({base + 128, 128});
    } else {
      out.push_back({base, static_cast<uint32_t>(segment)});
    }
    return;
  }
  const uint32_t bytes = std::max<uint32_t>(32, size);  // one transaction per thread
  for (int k = 0; k < 16; ++k)
    if (half >> k & 1u) out.push_back({align_down(a[first + k], bytes), bytes});
}


}  // namespace

GPUSIM_REGISTER(CoalescingRegistry, "cc1.0", "1.0/1.1: per half-warp, coalesced only when thread k reads word k",
                [] { return std::make_unique<PerHalfWarp<half_warp>>(); })

}  // namespace gpusim::memory
