// DRAM channels (memory/dram/dram.cpp).
#pragma once

#include <cstdint>

#include "util/params.hpp"

namespace gpusim::memory {

struct DramConfig {
  int64_t size_bytes = 0;
  int latency = 0;
  double bandwidth_gbs = 0;
  int channels = 0;

  template <class V>
  void declare(V& v) {
    v.integer("size_bytes", size_bytes,
              {.min = 1, .max = int64_t{1} << 50, .unit = "bytes",
               .doc = "device memory (cudaDeviceProp::totalGlobalMem): a workload's buffers must fit"});
    v.integer("latency", latency, {.min = 1, .max = 100000, .unit = "cycles", .doc = "seen by the SM on an L2 miss, unloaded"});
    v.number("bandwidth_gbs", bandwidth_gbs,
             {.min = 0.001, .max = 1e6, .unit = "GB/s", .doc = "sustained bandwidth, shared equally by the channels"});
    v.integer("channels", channels,
              {.min = 1, .max = 1024, .doc = "independent channels (addresses hashed over them in 256-byte chunks)"});
  }
};

}  // namespace gpusim::memory
