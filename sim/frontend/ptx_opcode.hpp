// Decodes a PTX opcode word ("ld.global.nc.v2.f32", "setp.lt.and.s32") into the
// instruction's opcode and modifiers.
#pragma once

#include <string>

#include "kernel/ir.hpp"

namespace gpusim::frontend {

// Fills op, types, space and the mode fields of `in`. Returns an empty string on
// success, or why the word is not supported.
std::string decode_opcode(const std::string& word, kernel::Instruction& in);

// Operands an opcode takes: destinations (0-2) and sources, before optional ones.
struct OperandShape {
  int min_sources = 0;
  int max_sources = 0;
  bool has_dest = true;
};
OperandShape operand_shape(const kernel::Instruction& in);

kernel::DataType parse_type(const std::string& suffix);  // "s32" -> S32, else None

}  // namespace gpusim::frontend
