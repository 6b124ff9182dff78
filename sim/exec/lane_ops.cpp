// Decoding the most frequent instructions once per program (lane_ops.hpp): each family's
// decoder picks the lane loop, this places the sources and the destination. Running them:
// lane_ops_run.hpp.
#include "exec/lane_ops.hpp"

#include "exec/executor.hpp"

namespace gpusim::exec {

using kernel::Opcode;

namespace {

// Only these opcodes: execute() runs a decoded form before its opcode switch, so an opcode
// with a case of its own there must never get one.
LaneOp decode(const kernel::Program& program, const kernel::Instruction& in) {
  switch (in.op) {
    case Opcode::Setp: return decode_compare(program, in);
    case Opcode::Mov:
    case Opcode::Cvt:
    case Opcode::Cvta: return decode_move(program, in);
    case Opcode::Add:
    case Opcode::Sub:
    case Opcode::Mul:
    case Opcode::Mad:
    case Opcode::Div:
    case Opcode::Rem:
    case Opcode::Sqrt:
    case Opcode::Rsqrt:
    case Opcode::Rcp:
    case Opcode::Ex2:
    case Opcode::Lg2:
    case Opcode::Sin:
    case Opcode::Cos:
    case Opcode::Fma:
    case Opcode::And:
    case Opcode::Or:
    case Opcode::Xor:
    case Opcode::Not:
    case Opcode::Neg:
    case Opcode::Abs:
    case Opcode::Shl:
    case Opcode::Shr:
    case Opcode::Min:
    case Opcode::Max:
    case Opcode::Selp: return decode_arithmetic(program, in);
    default: return {};
  }
}

}  // namespace

LaneOps::LaneOps(const kernel::Program& program, const kernel::RegisterSlots& slots)
    : ops(program.code.size()), immediates(kWarpSize, 0), wide_immediates(kWarpSize, 0) {
  for (size_t pc = 0; pc < program.code.size(); ++pc) {
    const kernel::Instruction& in = program.code[pc];
    LaneOp op = decode(program, in);
    // Each source in place: a register of the source's width, not negated, or an immediate
    // (not frame-relative). A special register is read at issue.
    const int sources = op.form == LaneOp::Form::Special ? 0 : in.num_src;
    for (int i = 0; i < sources && op.form != LaneOp::Form::None; ++i) {
      const kernel::Operand& o = in.src[i];
      LaneOp::Source& s = op.src[static_cast<size_t>(i)];
      if (o.kind == kernel::Operand::Kind::Reg && !o.negate && program.reg_wide[o.reg] == s.wide) {
        s.reg = o.reg;
        s.base = slots.slot[o.reg] * kWarpSize;
      } else if (o.kind == kernel::Operand::Kind::Imm && !o.frame && s.wide) {
        s.base = static_cast<uint32_t>(wide_immediates.size());
        wide_immediates.insert(wide_immediates.end(), kWarpSize, static_cast<uint64_t>(o.imm));
      } else if (o.kind == kernel::Operand::Kind::Imm && !o.frame) {
        s.base = static_cast<uint32_t>(immediates.size());
        immediates.insert(immediates.end(), kWarpSize, static_cast<uint32_t>(o.imm));
      } else {
        op.form = LaneOp::Form::None;
      }
    }
    if (op.form == LaneOp::Form::None) continue;
    op.dst = in.dst.reg;
    op.dst_base = slots.slot[in.dst.reg] * kWarpSize;
    const LaneOp::Source& addend = op.src[2];
    op.in_place = !(op.form == LaneOp::Form::Widening && addend.reg != kernel::kNoReg && addend.base == op.dst_base);
    ops[pc] = op;
  }
}

}  // namespace gpusim::exec
