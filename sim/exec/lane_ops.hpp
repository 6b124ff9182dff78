// The most frequent instructions decoded once per program: 32-bit integer, f32, predicate
// logic and selp on 32-bit registers; 64-bit integer and f64 arithmetic; integer division
// and remainder; 32- and 64-bit comparisons (setp); moves and the simple conversions (mov,
// cvt between integer widths and to f32, cvta outside the shared and local windows). Each
// such instruction gets the loop over the warp's lanes that is its operation, and where
// each operand lives, so that issuing it costs a look-up and the loop, not the type and
// operand checks of every issue (lane_ops.cpp).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "kernel/ir.hpp"
#include "kernel/register_slots.hpp"

namespace gpusim::exec {

// out[l] = op(a[l], b[l], c[l]) for every lane of the warp.
using LaneKernel = void (*)(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* out);
using WideKernel = void (*)(const uint64_t* a, const uint64_t* b, uint64_t* out);  // add, sub, mov
using WideningKernel = void (*)(const uint32_t* a, const uint32_t* b, const uint64_t* c, uint64_t* out);  // mul/mad.wide, cvt
using NarrowingKernel = void (*)(const uint64_t* a, uint32_t* out);  // cvt of a 64-bit integer to 32 bits or fewer
using ShiftKernel = void (*)(const uint64_t* a, const uint32_t* n, uint64_t* out);  // a 64-bit shl or shr by n
using TernaryKernel = void (*)(const uint64_t* a, const uint64_t* b, const uint64_t* c, uint64_t* out);  // f64, mul/mad.lo
// The lanes of `mask` for which a comparison of a[l] and b[l] holds, as a mask (setp).
using CompareKernel = uint32_t (*)(uint32_t mask, const uint32_t* a, const uint32_t* b);
using WideCompareKernel = uint32_t (*)(uint32_t mask, const uint64_t* a, const uint64_t* b);

struct LaneOp {
  enum class Form : uint8_t {
    None,       // not one of these: the general path runs it
    Narrow,     // 32-bit sources and result: `narrow`
    Wide,       // 64-bit sources and result: `wide`
    // Integer div or rem, as Narrow and Wide where no executed lane divides by zero (the
    // general path runs a warp with one, and faults).
    NarrowDivide,
    WideDivide,
    WideShift,  // a 64-bit a shifted by a 32-bit count b: `shift`
    WideTernary,  // 64-bit sources (up to three) and result: `ternary`
    Widening,   // 32-bit a and b, a 64-bit addend c (zeros where unused) and result: `widening`
    Narrowing,  // a 64-bit source, a 32-bit result: `narrowing`
    Compare,    // 32-bit a and b; predicates `dst` (where it holds) and `dst2` (where not): `compare`
    WideCompare,  // as Compare, of 64-bit a and b: `wide_compare`
    Special,    // a special register's lanes into a 32-bit register: `special`
  };
  // One source: a register's lanes from `base` in the warp's narrow or wide registers (by
  // `wide`), or (reg kNoReg) an immediate's, or a missing source's zeros, from `base` in
  // LaneOps' immediates of that width.
  struct Source {
    uint32_t reg = kernel::kNoReg;
    uint32_t base = 0;
    bool wide = false;
  };
  Form form = Form::None;
  kernel::SpecialReg special{};
  LaneKernel narrow = nullptr;
  WideKernel wide = nullptr;
  WideningKernel widening = nullptr;
  NarrowingKernel narrowing = nullptr;
  ShiftKernel shift = nullptr;
  TernaryKernel ternary = nullptr;
  CompareKernel compare = nullptr;
  WideCompareKernel wide_compare = nullptr;
  uint32_t dst = kernel::kNoReg;
  uint32_t dst2 = kernel::kNoReg;  // Compare: setp's second predicate, or none
  uint32_t dst_base = 0;  // the destination's lanes in the narrow or wide registers (by form)
  // A full warp's results go straight to the destination: every loop is lane by lane, but
  // mul/mad.wide's adds its addend in a second pass, so not where the addend shares the
  // destination's slot (kernel/register_slots.hpp).
  bool in_place = true;
  std::array<Source, 3> src{};
};

// Every instruction's LaneOp, by PC, and the immediates' lanes they read.
struct LaneOps {
  std::vector<LaneOp> ops;
  std::vector<uint32_t> immediates;       // 32 lanes each; the first 32: zeros
  std::vector<uint64_t> wide_immediates;  // the same, 64 bits a lane

  LaneOps(const kernel::Program& program, const kernel::RegisterSlots& slots);
};

// The decoders of each family: the form and lane loop of `in`, with each source's width set
// (the sources are placed by LaneOps); form None where the general path must run it.
LaneOp decode_arithmetic(const kernel::Program& program, const kernel::Instruction& in);  // alu32.cpp
LaneOp decode_wide_arithmetic(const kernel::Instruction& in);  // alu64.cpp: the destination is a 64-bit register
LaneOp decode_compare(const kernel::Program& program, const kernel::Instruction& in);     // compare.cpp
LaneOp decode_move(const kernel::Program& program, const kernel::Instruction& in);        // lane_moves.cpp: mov, cvt, cvta

}  // namespace gpusim::exec
