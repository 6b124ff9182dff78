// The GPU-wide block scheduler's parameters (core/block_dispatcher.cpp).
#pragma once

#include <string>
#include <vector>

#include "util/params.hpp"

namespace gpusim::core {

struct BlockDispatchConfig {
  std::vector<int> sm_order;  // the order blocks are offered to SMs; empty: ascending
  int kernel_launch_cycles = 0;
  int block_launch_cycles = 8;
  double block_dispatch_interval = 0;
  int block_release_cycles = 0;

  static params::CustomSpec<std::vector<int>> sm_order_spec();

  template <class V>
  void declare(V& v) {
    v.custom("sm_order", sm_order, sm_order_spec());
    v.integer("kernel_launch_cycles", kernel_launch_cycles,
              {.min = 0, .max = 100'000'000, .def = 0, .unit = "cycles", .doc = "GPU-wide, from the launch to the first block"});
    v.integer("block_launch_cycles", block_launch_cycles,
              {.min = 0, .max = 100'000'000, .def = 8, .unit = "cycles",
               .doc = "per block, from its assignment to its warps' first issue"});
    v.number("block_dispatch_interval", block_dispatch_interval,
             {.min = 0, .max = 1e6, .def = 0, .unit = "cycles", .doc = "GPU-wide cycles between two block assignments"});
    v.integer("block_release_cycles", block_release_cycles,
              {.min = 0, .max = 1'000'000, .def = 0, .unit = "cycles",
               .doc = "from a block's last warp's exit until its SM can take another block"});
  }
};

}  // namespace gpusim::core
