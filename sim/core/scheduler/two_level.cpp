// Two-level (Narasiman et al., MICRO 2011): an active set of warps not waiting on memory,
// oldest first; warps waiting on loads drop to a pending set behind them.
#include <algorithm>

#include "core/scheduler/issue_scan.hpp"
#include "core/scheduler/policy.hpp"

namespace gpusim::core {
namespace {

class TwoLevel final : public SchedulerPolicy {
 public:
  void pick(IssueScan& scan) override {
    const std::span<const uint32_t> live = scan.live();
    order_.assign(live.begin(), live.end());
    std::stable_partition(order_.begin(), order_.end(), [&](uint32_t slot) { return scan.active(slot); });
    for (uint32_t slot : order_)
      if (scan.offer(static_cast<size_t>(std::find(live.begin(), live.end(), slot) - live.begin()))) return;
  }

 private:
  std::vector<uint32_t> order_;  // scratch
};

}  // namespace

GPUSIM_REGISTER(SchedulerPolicyRegistry, "two_level",
                "two-level: warps not waiting on memory first, oldest first; those waiting on loads behind",
                [] { return std::make_unique<TwoLevel>(); })

}  // namespace gpusim::core
