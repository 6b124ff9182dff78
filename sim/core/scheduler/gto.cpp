// Greedy then oldest: the warp that issued last while it can, then the oldest ready one.
#include "core/scheduler/issue_scan.hpp"
#include "core/scheduler/policy.hpp"

namespace gpusim::core {
namespace {

class GreedyThenOldest final : public SchedulerPolicy {
 public:
  void pick(IssueScan& scan) override {
    const std::span<const uint32_t> live = scan.live();
    const size_t n = live.size();
    const size_t at = scan.last_index();
    // Greedy only while the last issuer is still there (it may have exited).
    const size_t greedy = at < n && live[at] == scan.last_slot() ? at : n;
    if (greedy < n && scan.offer(greedy)) return;
    scan.offer_each(0, n, greedy);
  }
};

}  // namespace

GPUSIM_REGISTER(SchedulerPolicyRegistry, "gto", "greedy then oldest: the last issuer while it can, then the oldest",
                [] { return std::make_unique<GreedyThenOldest>(); })

}  // namespace gpusim::core
