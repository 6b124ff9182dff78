// A warp-scheduler policy: the order in which one scheduler offers its warps for issue
// each cycle (core/scheduler/issue_scan.hpp). Each policy is a plug-in in this folder,
// named in the architecture file (scheduling.policy); it may keep state of its own (one
// instance per scheduler).
#pragma once

#include "util/registry.hpp"

namespace gpusim::core {

class IssueScan;

class SchedulerPolicy {
 public:
  virtual ~SchedulerPolicy() = default;
  // Offers warps to `scan` in the policy's order until one issues or none is left.
  virtual void pick(IssueScan& scan) = 0;
};

using SchedulerPolicyRegistry = util::Registry<SchedulerPolicy>;

}  // namespace gpusim::core
