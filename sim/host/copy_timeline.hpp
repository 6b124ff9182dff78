// The workload's timeline on the host side: streams, the copy engines and the GPU as
// resources. Steps in different streams overlap as on hardware: one kernel at a time on
// the GPU; copies on the copy engines (none: they share the GPU with kernels; one: both
// directions share it; two or more: one per direction); a copy from pageable memory is
// synchronous, so nothing after it starts before it ends. A copy takes the link's latency
// plus its bytes over the link's bandwidth (pinned or pageable).
#pragma once

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "engine/event_queue.hpp"
#include "host/host_link_config.hpp"

namespace gpusim::host {

class CopyTimeline {
 public:
  CopyTimeline(const HostLinkConfig& link, double core_clock_mhz);

  struct Slot {
    engine::Cycle start = 0, end = 0;
    int engine = -1;  // the copy engine it ran on; -1: none (it shares the GPU with kernels)
  };
  // Places a copy in `stream`; returns its slot.
  Slot copy(int stream, bool to_device, uint64_t bytes, bool pinned);
  // The cycle a kernel in `stream` can start; kernel_done tells it when the kernel ended.
  engine::Cycle kernel_start(int stream) const;
  void kernel_done(int stream, engine::Cycle end);
  // The end of the last step.
  engine::Cycle makespan() const { return all_done_; }
  // Cycles a copy takes on the link.
  engine::Cycle copy_cycles(uint64_t bytes, bool pinned, bool to_device) const;

 private:
  engine::Cycle ready(int stream) const;
  HostLinkConfig link_;
  double core_clock_mhz_;
  std::map<int, engine::Cycle> stream_ready_;
  engine::Cycle gpu_free_ = 0, sync_point_ = 0, all_done_ = 0;
  std::vector<engine::Cycle> engine_free_;  // per copy engine (at least one slot)
};

}  // namespace gpusim::host
