#include "kernel/ir.hpp"

namespace gpusim::kernel {

const char* opcode_name(Opcode op) {
  static constexpr const char* kNames[] = {
      "add", "sub", "mul", "mad", "fma", "div", "rem", "min", "max", "abs", "neg",
      "and", "or", "xor", "not", "cnot", "shl", "shr", "popc", "clz", "brev", "bfe", "bfi",
      "setp", "selp", "mov", "cvt", "cvta",
      "ld", "st", "atom", "red",
      "bar", "membar", "bra", "ret", "exit",
      "shfl", "vote",
      "ex2", "lg2", "sqrt", "rsqrt", "rcp", "sin", "cos", "copysign"};
  return kNames[static_cast<int>(op)];
}

int type_bits(DataType t) {
  switch (t) {
    case DataType::None: return 0;
    case DataType::Pred: return 1;
    case DataType::B8: case DataType::U8: case DataType::S8: return 8;
    case DataType::B16: case DataType::U16: case DataType::S16: case DataType::F16: return 16;
    case DataType::B32: case DataType::U32: case DataType::S32: case DataType::F32: return 32;
    case DataType::B64: case DataType::U64: case DataType::S64: case DataType::F64: return 64;
  }
  return 0;
}

bool is_float(DataType t) { return t == DataType::F16 || t == DataType::F32 || t == DataType::F64; }

bool is_signed(DataType t) {
  return t == DataType::S8 || t == DataType::S16 || t == DataType::S32 || t == DataType::S64;
}

const char* type_name(DataType t) {
  static constexpr const char* kNames[] = {"",    "pred", "b8",  "b16", "b32", "b64", "u8",  "u16", "u32",
                                           "u64", "s8",   "s16", "s32", "s64", "f16", "f32", "f64"};
  return kNames[static_cast<int>(t)];
}

}  // namespace gpusim::kernel
