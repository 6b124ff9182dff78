// Execution units and dependent-issue latencies of one SM, as the instruction classifier
// (core/instruction_class.cpp) and the barrier unit use them.
#pragma once

#include "util/params.hpp"

namespace gpusim::core {

// Results per clock per SM for each class (the CUDA guide's throughput table).
struct ExecutionUnits {
  int fp32 = 0;
  int int32 = 0;
  int fp64 = 0;
  int sfu = 0;
  int load_store = 0;

  template <class V>
  void declare(V& v) {
    v.integer("fp32", fp32, {.min = 1, .max = 4096, .unit = "lanes/SM", .doc = "FP32 results per clock per SM"});
    v.integer("int32", int32, {.min = 1, .max = 4096, .unit = "lanes/SM", .doc = "32-bit integer results per clock per SM"});
    v.integer("fp64", fp64,
              {.min = 0, .max = 4096, .unit = "lanes/SM",
               .doc = "FP64 results per clock per SM; 0: no double precision (emulated on the FP32 lanes)"});
    v.integer("sfu", sfu, {.min = 1, .max = 4096, .unit = "lanes/SM", .doc = "special-function (MUFU) results per clock per SM"});
    v.integer("load_store", load_store,
              {.min = 1, .max = 4096, .unit = "lanes/SM", .doc = "load/store unit lanes per SM: addresses per clock"});
  }
};

// Dependent-issue latency per instruction class, in cycles.
struct Latencies {
  int fp32 = 0;
  int int32 = 0;
  int fp64 = 0;
  int sfu = 0;
  int barrier = 0;
  double barrier_per_warp = 0;
  int int_divide = 0;
  int int_divide_slots = 13;

  template <class V>
  void declare(V& v) {
    v.integer("fp32", fp32, {.min = 1, .max = 10000, .unit = "cycles", .doc = "FP32 add/multiply/FMA: issue to dependent issue"});
    v.integer("int32", int32, {.min = 1, .max = 10000, .unit = "cycles", .doc = "32-bit integer arithmetic"});
    v.integer("fp64", fp64,
              {.min = 0, .max = 10000, .unit = "cycles", .doc = "FP64 arithmetic; 0 exactly when execution_units.fp64 is 0"});
    v.integer("sfu", sfu, {.min = 1, .max = 10000, .unit = "cycles", .doc = "special functions (ex2, lg2, rsqrt, sin, ...)"});
    v.integer("barrier", barrier,
              {.min = 0, .max = 100000, .def = 0, .unit = "cycles", .doc = "bar.sync: from the last warp's arrival to the release"});
    v.number("barrier_per_warp", barrier_per_warp,
             {.min = 0, .max = 10000, .def = 0, .unit = "cycles/warp", .doc = "added to the barrier release per warp of the block"});
    v.integer("int_divide", int_divide,
              {.min = 1, .max = 100000, .unit = "cycles",
               .doc = "integer div/rem: no divider, SASS runs an instruction sequence this long"});
    v.integer("int_divide_slots", int_divide_slots,
              {.min = 1, .max = 1000, .def = 13, .unit = "issue cycles",
               .doc = "scheduler issue cycles that sequence takes (13 SASS instructions on every generation checked)"});
  }
};

}  // namespace gpusim::core
