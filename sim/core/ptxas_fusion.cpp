#include "core/ptxas_fusion.hpp"

#include <unordered_map>

namespace gpusim::core {
namespace {

using kernel::DataType;
using kernel::Instruction;
using kernel::Opcode;
using kernel::Operand;

bool is_integer(DataType t) {
  return t != DataType::None && t != DataType::Pred && t != DataType::F16 && t != DataType::F32 &&
         t != DataType::F64;
}

bool is_int_add(const Instruction& in) { return (in.op == Opcode::Add || in.op == Opcode::Sub) && is_integer(in.type); }

// Can `producer`'s result be folded into `consumer` as ptxas would?
bool fusable(const Instruction& producer, const Instruction& consumer) {
  // A predicated pair fuses under one predicate (ptxas's predicated if-thens: @!P0 IMAD.WIDE).
  if (producer.guard != consumer.guard || producer.guard_negated != consumer.guard_negated || !is_integer(producer.type))
    return false;
  switch (producer.op) {
    case Opcode::Shl:
    case Opcode::Shr:  // LEA / LEA.HI take a constant shift
      return producer.src[1].kind == Operand::Kind::Imm && is_int_add(consumer);
    case Opcode::Mul:  // IMAD, IMAD.WIDE
      return is_int_add(consumer);
    case Opcode::Add:
    case Opcode::Sub:  // IADD3: three 32-bit operands
      return kernel::type_bits(producer.type) == 32 && is_int_add(consumer) &&
             kernel::type_bits(consumer.type) == 32;
    case Opcode::Cvt:  // a widened index goes straight into IMAD.WIDE / LEA.HI.X
      return is_integer(producer.type2) && kernel::type_bits(producer.type) == 64 &&
             kernel::type_bits(producer.type2) == 32 &&
             (is_int_add(consumer) || consumer.op == Opcode::Shl || consumer.op == Opcode::Mul);
    default: return false;
  }
}

}  // namespace

void fuse_like_ptxas(const kernel::Program& program, std::vector<InstructionTiming>& timing, bool imad_on_fp32,
                     int wide_latency) {
  struct Use {
    int defs = 0, uses = 0;
    size_t user = 0;
  };
  std::unordered_map<uint32_t, Use> regs;
  for (size_t i = 0; i < timing.size(); ++i) {
    for (uint32_t r : timing[i].writes)
      if (r != kernel::kNoReg) ++regs[r].defs;
    for (uint32_t r : timing[i].reads)
      if (r != kernel::kNoReg) {
        ++regs[r].uses;
        regs[r].user = i;
      }
  }
  std::vector<bool> absorbed(timing.size(), false);
  for (size_t i = 0; i < timing.size(); ++i) {
    const InstructionTiming& t = timing[i];
    if (t.writes[0] == kernel::kNoReg || t.writes[1] != kernel::kNoReg) continue;
    const Use& u = regs[t.writes[0]];
    if (u.defs != 1 || u.uses != 1 || u.user == i || absorbed[u.user] || timing[u.user].issue_slots == 0) continue;
    if (!fusable(program.code[i], program.code[u.user])) continue;
    absorbed[u.user] = true;
    const Opcode made = program.code[i].op;
    InstructionTiming& user = timing[u.user];
    if (made == Opcode::Mul && imad_on_fp32) user.unit = Unit::Fp32;
    if (made != Opcode::Cvt) user.other_unit = Unit::Count;  // an IMAD, LEA or IADD3 has one pipe
    // mul.wide + add.s64 is one IMAD.WIDE (Volta onward, with the IMAD on the FMA pipe), not a
    // low and a high half: ptxas's stall counts from IMAD.WIDE to a load of its address are 6
    // (455 of 809 pairs in the corpus's SASS; 5 to a store), where an IMAD feeds an IMAD after 4.
    if (imad_on_fp32 && made == Opcode::Mul && program.code[i].mode == static_cast<uint8_t>(kernel::MulMode::Wide) &&
        user.issue_slots == 2) {
      user.issue_slots = 1;
      user.latency = static_cast<uint16_t>(wide_latency);
    }
    timing[i].issue_slots = 0;
    timing[i].latency = 0;
    timing[i].occupancy = 0;
  }
}

}  // namespace gpusim::core
