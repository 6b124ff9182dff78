// The common 32-bit operations (integer, f32, predicate logic, selp) decoded once per
// program: each such instruction's lane loop and where its operands live, so that issuing it
// costs a look-up and the loop, not the type and operand checks of every issue (alu32.cpp).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "kernel/ir.hpp"
#include "kernel/register_slots.hpp"

namespace gpusim::exec {

// out[l] = op(a[l], b[l], c[l]) for every lane of the warp.
using LaneKernel = void (*)(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* out);

struct Lane32Op {
  // One source: a narrow register's lanes from `base` in the warp's narrow registers, or
  // (reg kNoReg) an immediate's (or, for a missing source, zeros') from `base` in Lane32Table's.
  struct Source {
    uint32_t reg = kernel::kNoReg;
    uint32_t base = 0;
  };
  LaneKernel kernel = nullptr;  // null: the instruction is not one of these
  uint32_t dst = kernel::kNoReg;
  uint32_t dst_base = 0;        // the destination's lanes in the narrow registers
  std::array<Source, 3> src{};
};

// Every instruction's Lane32Op, by PC, and the immediates' lanes they read.
struct Lane32Table {
  std::vector<Lane32Op> ops;
  std::vector<uint32_t> immediates;  // 32 lanes each; the first 32: zeros

  Lane32Table(const kernel::Program& program, const kernel::RegisterSlots& slots);
};

}  // namespace gpusim::exec
