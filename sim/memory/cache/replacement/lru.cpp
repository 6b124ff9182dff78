// Least recently used: every hit or fill stamps the way; the oldest stamp goes.
#include <vector>

#include "memory/cache/replacement.hpp"

namespace gpusim::memory {
namespace {

class Lru final : public ReplacementPolicy {
 public:
  Lru(uint64_t sets, uint32_t ways) : ways_(ways), stamp_(sets * ways, 0) {}
  void filled(uint64_t set, uint32_t way) override { stamp_[set * ways_ + way] = ++clock_; }
  void touched(uint64_t set, uint32_t way) override { stamp_[set * ways_ + way] = ++clock_; }
  uint32_t victim(uint64_t set) const override {
    const uint64_t* s = &stamp_[set * ways_];
    uint32_t oldest = 0;
    for (uint32_t i = 1; i < ways_; ++i)
      if (s[i] < s[oldest]) oldest = i;
    return oldest;
  }

 private:
  uint32_t ways_;
  std::vector<uint64_t> stamp_;
  uint64_t clock_ = 0;
};

}  // namespace

GPUSIM_REGISTER(ReplacementRegistry, "lru", "least recently used (hits and fills refresh a line)",
                [](uint64_t sets, uint32_t ways) { return std::make_unique<Lru>(sets, ways); })

}  // namespace gpusim::memory
