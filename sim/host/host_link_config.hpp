// The host link and copy engines (host/copy_timeline.cpp).
#pragma once

#include <string>

#include "util/params.hpp"

namespace gpusim::host {

struct HostLinkConfig {
  std::string name;
  double bandwidth_gbs = 0;
  double pageable_bandwidth_gbs = 0;
  double pageable_to_host_bandwidth_gbs = 0;
  double latency_us = 0;
  double pageable_latency_us = 0;
  int copy_engines = 0;

  template <class V>
  void declare(V& v) {
    v.text("name", name, {.doc = "the link, e.g. \"PCIe 3.0 x16\""});
    v.number("bandwidth_gbs", bandwidth_gbs,
             {.min = 0.001, .max = 1e6, .unit = "GB/s", .doc = "per direction, from pinned (page-locked) host memory"});
    v.number("pageable_bandwidth_gbs", pageable_bandwidth_gbs,
             {.min = 0.001, .max = 1e6, .unit = "GB/s", .doc = "from pageable host memory (staged through a pinned buffer)"});
    v.number("pageable_to_host_bandwidth_gbs", pageable_to_host_bandwidth_gbs,
             {.min = 0, .max = 1e6, .def = 0, .unit = "GB/s",
              .doc = "device to pageable host memory, where it differs (the staging copies run at the host's memcpy "
                     "speed, not the same both ways); 0: pageable_bandwidth_gbs both ways"});
    v.number("latency_us", latency_us, {.min = 0, .max = 1e6, .unit = "us", .doc = "fixed cost of one copy"});
    v.number("pageable_latency_us", pageable_latency_us,
             {.min = 0, .max = 1e6, .def = 0, .unit = "us",
              .doc = "fixed cost of one copy from or to pageable memory, where it differs (a small one is a host memcpy "
                     "into the staging buffer and one DMA); 0: latency_us"});
    v.integer("copy_engines", copy_engines,
              {.min = 0, .max = 64,
               .doc = "0: copies cannot overlap kernels; 1: one copy at a time beside kernels; 2 or more: one per direction"});
    v.check([&](const params::Checker& c) {
      c.require(pageable_bandwidth_gbs <= bandwidth_gbs, "pageable_bandwidth_gbs", "exceeds bandwidth_gbs (pinned)");
      c.require(pageable_to_host_bandwidth_gbs <= bandwidth_gbs, "pageable_to_host_bandwidth_gbs",
                "exceeds bandwidth_gbs (pinned)");
    });
  }
};

}  // namespace gpusim::host
