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
    for (size_t i = scan.next(start, n); i < n; i = scan.next(i + 1, n))
      if (scan.offer(i)) return;
    for (size_t i = scan.next(0, start); i < start; i = scan.next(i + 1, start))
      if (scan.offer(i)) return;
  }
};

}  // namespace

GPUSIM_REGISTER(SchedulerPolicyRegistry, "lrr", "loose round robin: start after the warp that issued last",
                [] { return std::make_unique<LooseRoundRobin>(); })

}  // namespace gpusim::core
