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
  int banks = 1;
  int bank_cycles = 0;
  int write_batch_bytes = 0;
  int turnaround_cycles = 0;

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
    v.integer("banks", banks,
              {.min = 1, .max = 1024, .def = 1, .doc = "banks per channel (each access's 64-byte unit hashed over them)"});
    v.integer("bank_cycles", bank_cycles,
              {.min = 0, .max = 100000, .def = 0, .unit = "cycles",
               .doc = "how long an access holds its bank (a row's activate-to-activate time): a later access to the "
                      "bank waits; 0: banks never wait"});
    v.integer("write_batch_bytes", write_batch_bytes,
              {.min = 0, .max = 1 << 30, .def = 0, .unit = "bytes",
               .doc = "a channel queues write-backs and writes them in batches of this many bytes, turning its bus "
                      "around before and after; 0: each write is served when it comes, as a read is"});
    v.integer("turnaround_cycles", turnaround_cycles,
              {.min = 0, .max = 100000, .def = 0, .unit = "cycles", .doc = "bus time lost at each change of direction (batched writes)"});
  }
};

}  // namespace gpusim::memory
