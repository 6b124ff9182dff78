// Static re-reference interval prediction (Jaleel et al., ISCA 2010): each way has a 2-bit
// prediction of how far off its next use is. A fill predicts "long" (2), a hit "near" (0);
// the victim is a way predicted "distant" (3), the set's ways aged by one until there is one.
// Lines that hit are kept over lines filled once, so a walk larger than the cache keeps a
// growing part of itself pass after pass, where LRU keeps nothing.
#include <algorithm>
#include <vector>

#include "memory/cache/replacement.hpp"

namespace gpusim::memory {
namespace {

class Srrip final : public ReplacementPolicy {
 public:
  Srrip(uint64_t sets, uint32_t ways) : ways_(ways), rrpv_(sets * ways, kDistant) {}
  void filled(uint64_t set, uint32_t way) override { rrpv_[set * ways_ + way] = kLong; }
  void filled_evict_first(uint64_t set, uint32_t way) override { rrpv_[set * ways_ + way] = kDistant; }
  void touched(uint64_t set, uint32_t way) override { rrpv_[set * ways_ + way] = 0; }
  void continued(uint64_t, uint32_t) override {}  // a line's other sectors arriving are no reuse
  uint32_t victim(uint64_t set) const override {
    uint8_t* r = &rrpv_[set * ways_];
    uint8_t oldest = 0;
    for (uint32_t i = 0; i < ways_; ++i) oldest = std::max(oldest, r[i]);
    const auto age = static_cast<uint8_t>(kDistant - oldest);  // what aging until a way is distant adds
    uint32_t chosen = ways_;
    for (uint32_t i = 0; i < ways_; ++i) {
      r[i] = static_cast<uint8_t>(r[i] + age);
      if (chosen == ways_ && r[i] == kDistant) chosen = i;
    }
    return chosen;
  }

 private:
  static constexpr uint8_t kLong = 2, kDistant = 3;
  uint32_t ways_;
  mutable std::vector<uint8_t> rrpv_;  // choosing a victim ages the set
};

}  // namespace

GPUSIM_REGISTER(ReplacementRegistry, "srrip",
                "re-reference prediction (2 bits): fills predicted far, hits near, the farthest evicted; a walk "
                "larger than the cache keeps a growing part of itself",
                [](uint64_t sets, uint32_t ways) { return std::make_unique<Srrip>(sets, ways); })

}  // namespace gpusim::memory
