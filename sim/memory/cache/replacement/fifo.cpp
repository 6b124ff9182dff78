// First in, first out: the line filled longest ago goes, however often it was hit.
#include "memory/cache/replacement/oldest.hpp"

namespace gpusim::memory {
namespace {

class Fifo final : public OldestStampEvicted {
 public:
  using OldestStampEvicted::OldestStampEvicted;
  void filled(uint64_t set, uint32_t way) override { stamp(set, way); }
  void touched(uint64_t, uint32_t) override {}
};

}  // namespace

GPUSIM_REGISTER(ReplacementRegistry, "fifo", "first in, first out (hits do not refresh a line)",
                [](uint64_t sets, uint32_t ways) { return std::make_unique<Fifo>(sets, ways); })

}  // namespace gpusim::memory
