// How each SM's warp schedulers issue (core/sm.cpp, core/scheduler/).
#pragma once

#include <string>

#include "core/scheduler/policy.hpp"
#include "util/params.hpp"

namespace gpusim::core {

struct SchedulingConfig {
  int warp_schedulers_per_sm = 0;
  int issue_width = 1;
  std::string policy = "gto";
  bool sass_like = false;
  int ptxas_unroll = 1;
  int ptxas_hoist_loads = 0;
  bool ptxas_register_bound = false;
  bool ptxas_predicate = false;
  bool static_stalls = false;

  template <class V>
  void declare(V& v) {
    v.integer("warp_schedulers_per_sm", warp_schedulers_per_sm,
              {.min = 1, .max = 64, .doc = "warp schedulers (SM sub-partitions); warp w belongs to scheduler w mod this"});
    v.integer("issue_width", issue_width,
              {.min = 1, .max = 8, .def = 1, .unit = "instructions",
               .doc = "independent instructions of one warp a scheduler may issue per cycle (2: Kepler's dual issue)"});
    v.plugin("policy", policy, params::options_of(SchedulerPolicyRegistry::instance()), {.def = "gto", .doc = "which ready warp a scheduler picks"});
    v.flag("sass_like", sass_like,
           {.def = false,
            .doc = "issue PTX as ptxas would emit SASS: fused pairs (LEA, IADD3, IMAD), list-scheduled basic blocks"});
    v.integer("ptxas_unroll", ptxas_unroll,
              {.min = 1, .max = 64, .def = 1, .unit = "loop trips",
               .doc = "trips of a PTX loop whose loads ptxas hoists together (its unroll factor over the PTX): a warp "
                      "issues past instructions waiting for memory for this many trips (core/hoist_queue.hpp); 1: in order"});
    v.integer("ptxas_hoist_loads", ptxas_hoist_loads,
              {.min = 0, .max = 1024, .def = 0, .unit = "loads",
               .doc = "loads ptxas schedules ahead of the first use of a loaded value: once a warp has issued this many "
                      "since it last issued such a use, what it set aside issues before anything more; 0: no limit"});
    v.flag("ptxas_register_bound", ptxas_register_bound,
           {.def = false,
            .doc = "with sass_like: a basic block's loads move up only while the live values fit the kernel's "
                   "registers per thread (ptxas schedules within what it allocated; core/ptxas_schedule.hpp)"});
    v.flag("ptxas_predicate", ptxas_predicate,
           {.def = false,
            .doc = "with sass_like: a short if-then (at most 20 instructions, stores weighing more) is predicated as "
                   "ptxas does: no branch, and every warp issues the body, lanes off where the condition fails "
                   "(core/ptxas_predication.hpp)"});
    v.flag("static_stalls", static_stalls,
           {.def = false,
            .doc = "ptxas's stall counts (Volta onward): the instruction before a consumer of a fixed-latency result "
                   "(arithmetic, a compare's predicate) holds its warp for the cycles its basic block's static "
                   "schedule leaves, counted from its own issue, even where a wait for memory came between "
                   "(core/static_stalls.hpp)"});
  }
};

}  // namespace gpusim::core
