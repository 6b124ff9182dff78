// First in, first out: the line filled longest ago goes, however often it was hit.
#include <vector>

#include "memory/cache/replacement.hpp"

namespace gpusim::memory {
namespace {

class Fifo final : public ReplacementPolicy {
 public:
  Fifo(uint64_t sets, uint32_t ways) : ways_(ways), filled_at_(sets * ways, 0) {}
  void filled(uint64_t set, uint32_t way) override { filled_at_[set * ways_ + way] = ++clock_; }
  void touched(uint64_t, uint32_t) override {}
  uint32_t victim(uint64_t set) const override {
    const uint64_t* s = &filled_at_[set * ways_];
    uint32_t oldest = 0;
    for (uint32_t i = 1; i < ways_; ++i)
      if (s[i] < s[oldest]) oldest = i;
    return oldest;
  }

 private:
  uint32_t ways_;
  std::vector<uint64_t> filled_at_;
  uint64_t clock_ = 0;
};

}  // namespace

GPUSIM_REGISTER(ReplacementRegistry, "fifo", "first in, first out (hits do not refresh a line)",
                [](uint64_t sets, uint32_t ways) { return std::make_unique<Fifo>(sets, ways); })

}  // namespace gpusim::memory
