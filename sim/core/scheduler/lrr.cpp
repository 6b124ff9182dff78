// Loose round robin: start after the warp that issued last.
#include "core/scheduler/issue_scan.hpp"
#include "core/scheduler/policy.hpp"

namespace gpusim::core {
namespace {

class LooseRoundRobin final : public SchedulerPolicy {
 public:
  void pick(IssueScan& scan) override {
    const size_t n = scan.live().size();
    const size_t at = scan.last_index();
    const size_t start = at < n ? at + 1 : 0;
    if (!scan.offer_each(start, n)) scan.offer_each(0, start);
  }
};

}  // namespace

GPUSIM_REGISTER(SchedulerPolicyRegistry, "lrr", "loose round robin: start after the warp that issued last",
                [] { return std::make_unique<LooseRoundRobin>(); })

}  // namespace gpusim::core
