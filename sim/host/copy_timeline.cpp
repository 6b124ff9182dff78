#include "host/copy_timeline.hpp"

#include <algorithm>
#include <cmath>

namespace gpusim::host {

CopyTimeline::CopyTimeline(const HostLinkConfig& link, double core_clock_mhz)
    : link_(link), core_clock_mhz_(core_clock_mhz), engine_free_(static_cast<size_t>(std::max(1, link.copy_engines)), 0) {}

engine::Cycle CopyTimeline::ready(int stream) const {
  const auto it = stream_ready_.find(stream);
  return it == stream_ready_.end() ? 0 : it->second;
}

engine::Cycle CopyTimeline::copy_cycles(uint64_t bytes, bool pinned, bool to_device) const {
  double bandwidth = link_.bandwidth_gbs, latency_us = link_.latency_us;
  if (!pinned) {
    bandwidth = !to_device && link_.pageable_to_host_bandwidth_gbs > 0 ? link_.pageable_to_host_bandwidth_gbs
                                                                       : link_.pageable_bandwidth_gbs;
    if (link_.pageable_latency_us > 0) latency_us = link_.pageable_latency_us;
  }
  const double seconds = latency_us * 1e-6 + static_cast<double>(bytes) / (bandwidth * 1e9);
  return static_cast<engine::Cycle>(std::llround(seconds * core_clock_mhz_ * 1e6));
}

CopyTimeline::Slot CopyTimeline::copy(int stream, bool to_device, uint64_t bytes, bool pinned) {
  const int engines = link_.copy_engines;
  const int engine = engines == 0 ? -1 : (engines == 1 || to_device ? 0 : 1);
  engine::Cycle& resource = engine < 0 ? gpu_free_ : engine_free_[static_cast<size_t>(engine)];
  engine::Cycle start = std::max({ready(stream), resource, sync_point_});
  if (!pinned) start = std::max(start, all_done_);  // synchronous: waits for everything before it
  const engine::Cycle end = start + copy_cycles(bytes, pinned, to_device);
  resource = end;
  stream_ready_[stream] = end;
  all_done_ = std::max(all_done_, end);
  if (!pinned) sync_point_ = end;
  return {start, end, engine};
}

engine::Cycle CopyTimeline::kernel_start(int stream) const { return std::max({ready(stream), gpu_free_, sync_point_}); }

void CopyTimeline::kernel_done(int stream, engine::Cycle end) {
  gpu_free_ = end;
  stream_ready_[stream] = end;
  all_done_ = std::max(all_done_, end);
}

}  // namespace gpusim::host
