// Compute capability 2.x: per warp (8-byte words per half-warp, 16-byte per
// quarter-warp), one 128-byte line per distinct line when cached in L1, 32-byte segments
// when not.
#include "memory/coalescing/align.hpp"

namespace gpusim::memory {
namespace {

class Cc20 final : public CoalescingRule {
 public:
  void coalesce(std::vector<Transaction>& out, const uint64_t* a, uint32_t mask, uint32_t size, bool through_l1,
                bool one_run) const override {
    out.clear();
    const uint32_t bytes = through_l1 ? 128 : 32;
    const int group = size == 16 ? 8 : size == 8 ? 16 : 32;
    // The common case (one run): a full warp's consecutive addresses give each group's blocks once, in order.
    for (int g = 0; g < 32; g += group) {
      const size_t part = out.size();  // each group is its own request: dedupe within it
      if (one_run) {
        for (uint64_t b = align_down(a[g], bytes); b < a[g + group - 1] + size; b += bytes) out.push_back({b, bytes});
        continue;
      }
      for (int k = g; k < g + group; ++k) {
        if (!(mask >> k & 1u)) continue;
        for (uint64_t b = align_down(a[k], bytes); b < a[k] + size; b += bytes) {
          if (out.size() > part && out.back().address == b) continue;  // neighbours mostly share
          bool seen = false;
          for (size_t i = part; i < out.size() && !seen; ++i) seen = out[i].address == b;
          if (!seen) out.push_back({b, bytes});
        }
      }
    }
  }
};

}  // namespace

GPUSIM_REGISTER(CoalescingRegistry, "cc2.0", "2.x: per warp, 128-byte L1 lines (32-byte segments uncached)",
                [] { return std::make_unique<Cc20>(); })

}  // namespace gpusim::memory
