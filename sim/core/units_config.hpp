// Execution units and dependent-issue latencies of one SM, as the instruction classifier
// (core/instruction_class.cpp) and the barrier unit use them.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "util/params.hpp"

namespace gpusim::core {

// Results per clock per SM for each class (the CUDA guide's throughput table).
struct ExecutionUnits {
  int fp32 = 0;
  int int32 = 0;
  int fp64 = 0;
  int sfu = 0;
  int load_store = 0;
  bool int_multiply_on_fp32 = false;

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
    v.flag("int_multiply_on_fp32", int_multiply_on_fp32,
           {.def = false,
            .doc = "Volta onward: integer multiply-adds (IMAD) run on the FP32 (FMA) pipe at the int32 rate, beside "
                   "the integer ALU; with sass_like, in a basic block whose busiest pipe is the ALU, 32-bit adds, moves "
                   "and left shifts take whichever of the two is free first (ptxas writes them as IMAD.IADD, "
                   "IMAD.MOV, IMAD.SHL to balance the pipes)"});
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
  int int_divide_reciprocal = 0;
  int int_divide_reciprocal_slots = 0;
  int sfu_range_fixup = 0;
  int taken_branch = 0;
  int compare = 0;

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
    v.integer("int_divide_reciprocal", int_divide_reciprocal,
              {.min = 0, .max = 100000, .def = 0, .unit = "cycles",
               .doc = "added to int_divide where the divisor's reciprocal is computed in place (outside loops, or "
                      "a divisor the loop changes; ptxas hoists a loop-invariant one)"});
    v.integer("int_divide_reciprocal_slots", int_divide_reciprocal_slots,
              {.min = 0, .max = 1000, .def = 0, .unit = "issue cycles",
               .doc = "added to int_divide_slots for that reciprocal (I2F, MUFU.RCP, F2I, two IMADs); both 0: not modelled"});
    v.integer("sfu_range_fixup", sfu_range_fixup,
              {.min = 0, .max = 10000, .def = 0, .unit = "cycles",
               .doc = "with sass_like: what ptxas's subnormal fix-up around a MUFU adds to a dependent chain "
                      "(rsqrt, ex2, lg2, sqrt, rcp .approx.f32 without .ftz: FSETP, a scaling FMUL before and "
                      "after); 0: not modelled"});
    v.integer("taken_branch", taken_branch,
              {.min = 0, .max = 10000, .def = 0, .unit = "cycles",
               .doc = "from a taken branch's issue to its target's (the warp's instructions fetched from the new "
                      "address); other warps issue meanwhile. A loop ptxas unrolls (scheduling.ptxas_unroll) pays "
                      "it once per unrolled body; 0: not modelled"});
    v.integer("compare", compare,
              {.min = 0, .max = 10000, .def = 0, .unit = "cycles",
               .doc = "setp: from the comparison to an instruction reading its predicate (a branch, a guarded or "
                      "selecting instruction); 0: the unit's latency"});
  }
};

enum class Unit : uint8_t { Fp32, Int32, Fp64, Sfu, LoadStore, Branch, Count };
constexpr int kUnitCount = static_cast<int>(Unit::Count);
// Unit busy time is counted in 1/64 cycles, so that a scheduler with 48 FP32 lanes
// (Kepler) accepts 1.5 warp instructions per cycle and one with 8 lanes (G80) one per 4.
constexpr uint32_t kUnitTicks = 64;

// Where one class of instructions runs and how soon its result can be read.
struct InstructionClass {
  Unit unit = Unit::Int32;
  int latency = 0;  // cycles; 0: the unit's latency (latencies.<unit>)

  InstructionClass() = default;
  explicit InstructionClass(Unit u) : unit(u) {}

  template <class V>
  void declare(V& v) {
    const Unit def = unit;
    v.choice("unit", unit,
             std::vector<params::Choice<Unit>>{{"fp32", Unit::Fp32, "the FP32 (FMA) pipe"},
                                               {"int32", Unit::Int32, "the integer (ALU) pipe"},
                                               {"fp64", Unit::Fp64, "the FP64 pipe"},
                                               {"sfu", Unit::Sfu, "the special-function (MUFU/XU) pipe"}},
             std::optional(def), "the pipe that runs it");
    v.integer("latency", latency,
              {.min = 0, .max = 10000, .def = 0, .unit = "cycles", .doc = "issue to dependent issue; 0: the unit's latency"});
  }
};

// The instructions gpusim times as a class of their own (their pipe and latency differ from
// plain integer or FP32 arithmetic): validate/latency/instruction_latency.cu measures each.
struct InstructionClasses {
  InstructionClass byte_permute{Unit::Int32};  // prmt
  InstructionClass funnel_shift{Unit::Int32};  // shf
  InstructionClass bit_scan{Unit::Int32};      // popc, clz, bfind
  InstructionClass warp_reduce{Unit::Int32};   // redux.sync
  InstructionClass warp_match{Unit::Int32};    // match.sync
  int warp_match_per_value = 0;                // cycles per distinct value after the first
  InstructionClass half{Unit::Fp32};           // f16, bf16, f16x2, bf16x2 arithmetic

  template <class V>
  void declare(V& v) {
    v.section("byte_permute", byte_permute, "prmt (__byte_perm)");
    v.section("funnel_shift", funnel_shift, "shf (funnel shifts, 64-bit rotates)");
    v.section("bit_scan", bit_scan, "popc, clz, bfind (__popc, __clz, __ffs)");
    v.section("warp_reduce", warp_reduce, "redux.sync (__reduce_*_sync)");
    v.section("warp_match", warp_match, "match.any/all.sync (__match_*_sync), with one distinct value");
    v.integer("warp_match_per_value", warp_match_per_value,
              {.min = 0, .max = 10000, .def = 0, .unit = "cycles",
               .doc = "match.sync serialises over the lanes' distinct values: added per value after the first"});
    v.section("half", half, "half and bfloat16 arithmetic (scalar and x2)");
  }
};

}  // namespace gpusim::core
