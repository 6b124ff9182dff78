// Least recently used: every hit or fill stamps the way; the oldest stamp goes.
#include "memory/cache/replacement/oldest.hpp"

namespace gpusim::memory {
namespace {

class Lru final : public OldestStampEvicted {
 public:
  using OldestStampEvicted::OldestStampEvicted;
  void filled(uint64_t set, uint32_t way) override { stamp(set, way); }
  void touched(uint64_t set, uint32_t way) override { stamp(set, way); }
};

}  // namespace

GPUSIM_REGISTER(ReplacementRegistry, "lru", "least recently used (hits and fills refresh a line)",
                [](uint64_t sets, uint32_t ways) { return std::make_unique<Lru>(sets, ways); })

}  // namespace gpusim::memory
