#include "kernel/ir.hpp"

namespace gpusim::kernel {

const char* opcode_name(Opcode op) {
  static constexpr const char* kNames[] = {
      "add", "sub", "mul", "mad", "fma", "div", "rem", "min", "max", "abs", "neg",
      "and", "or", "xor", "not", "cnot", "shl", "shr", "popc", "clz", "brev", "bfe", "bfi",
      "setp", "selp", "mov", "cvt", "cvta",
      "ld", "st", "atom", "red",
      "bar", "membar", "bra", "ret", "exit", "call",
      "shfl", "vote",
      "bar.warp.sync", "activemask", "redux", "match", "prmt", "nanosleep", "bfind", "bmsk",
      "ex2", "lg2", "sqrt", "rsqrt", "rcp", "sin", "cos", "copysign",
      "cp.async", "trap", "shf"};
  return kNames[static_cast<int>(op)];
}

const char* type_name(DataType t) {
  static constexpr const char* kNames[] = {"",    "pred", "b8",  "b16", "b32", "b64", "u8",  "u16", "u32",
                                           "u64", "s8",   "s16", "s32", "s64", "f16", "f32", "f64",
                                           "bf16", "f16x2", "bf16x2"};
  return kNames[static_cast<int>(t)];
}

}  // namespace gpusim::kernel
