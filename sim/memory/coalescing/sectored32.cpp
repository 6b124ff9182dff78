// Compute capability 3.x and later: per warp, one 32-byte sector per distinct sector.
#include "memory/coalescing/align.hpp"
#include "util/seen_set.hpp"

namespace gpusim::memory {
namespace {

class Sectored32 final : public CoalescingRule {
 public:
  void coalesce(std::vector<Transaction>& out, const uint64_t* a, uint32_t mask, uint32_t size, bool,
                bool one_run) const override {
    out.clear();
    if (one_run) {  // the common case: each sector once, in order
      for (uint64_t b = align_down(a[0], 32); b < a[31] + size; b += 32) out.push_back({b, 32});
      return;
    }
    util::FirstSeen seen;
    const auto listed = [&out](auto add) {
      for (const Transaction& t : out) add(t.address);
    };
    for (int k = 0; k < 32; ++k) {
      if (!(mask >> k & 1u)) continue;
      for (uint64_t b = align_down(a[k], 32); b < a[k] + size; b += 32)
        if ((out.empty() || out.back().address != b) && seen.insert(b, listed)) out.push_back({b, 32});  // neighbours mostly share
    }
  }
};

}  // namespace

GPUSIM_REGISTER(CoalescingRegistry, "sectored32", "3.x and later: one 32-byte sector per distinct sector",
                [] { return std::make_unique<Sectored32>(); })

}  // namespace gpusim::memory
