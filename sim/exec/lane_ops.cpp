// Decoding the most frequent instructions once per program (lane_ops.hpp), and running them:
// each family's decoder picks the lane loop, this places the sources and the destination.
// Results are those of the general path bit for bit; whatever a decoder does not cover goes
// there, as does an issue in which a lane reads a register it never wrote.
#include "exec/lane_ops.hpp"

#include "exec/executor.hpp"

namespace gpusim::exec {

using kernel::Opcode;

namespace {

LaneOp decode(const kernel::Program& program, const kernel::Instruction& in) {
  switch (in.op) {
    case Opcode::Setp: return decode_compare(program, in);
    case Opcode::Mov:
    case Opcode::Cvt:
    case Opcode::Cvta: return decode_move(program, in);
    default: return decode_arithmetic(program, in);
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

namespace {

// A decoded source's lanes: null when a lane of `mask` reads a register it never wrote
// (gather() gives it 0: the general path runs the instruction).
template <typename T>
const T* lanes_of(const LaneOps& decoded, const WarpState& w, const LaneOp::Source& s, uint32_t mask) {
  constexpr bool wide = sizeof(T) == sizeof(uint64_t);
  if (s.reg == kernel::kNoReg) {
    if constexpr (wide) return &decoded.wide_immediates[s.base];
    else return &decoded.immediates[s.base];
  }
  if (mask & ~w.defined[s.reg]) return nullptr;
  if constexpr (wide) return &w.wide[s.base];
  else return &w.narrow[s.base];
}

}  // namespace

namespace {

// Runs `kernel` into the destination's lanes: in place for a full warp where the op allows
// (LaneOp::in_place), else into a copy whose executed lanes are then written.
template <typename T, typename Kernel>
void into_lanes(T* dst, uint32_t mask, bool in_place, Kernel kernel) {
  if (mask == 0xFFFFFFFFu && in_place) {
    kernel(dst);
    return;
  }
  T out[kWarpSize];
  kernel(out);
  write_lanes(dst, out, mask);
}

}  // namespace

bool Executor::run_decoded(WarpState& w, const BlockState& b, const Instruction& in, uint32_t mask) {
  const LaneOp& op = lane_ops_.ops[static_cast<size_t>(&in - program_.code.data())];
  switch (op.form) {
    case LaneOp::Form::None: return false;
    case LaneOp::Form::Narrow: {
      const uint32_t* x = lanes_of<uint32_t>(lane_ops_, w, op.src[0], mask);
      const uint32_t* y = lanes_of<uint32_t>(lane_ops_, w, op.src[1], mask);
      const uint32_t* z = lanes_of<uint32_t>(lane_ops_, w, op.src[2], mask);
      if (!x || !y || !z) return false;
      into_lanes(&w.narrow[op.dst_base], mask, op.in_place, [&](uint32_t* out) { op.narrow(x, y, z, out); });
      break;
    }
    case LaneOp::Form::Wide: {
      const uint64_t* x = lanes_of<uint64_t>(lane_ops_, w, op.src[0], mask);
      const uint64_t* y = lanes_of<uint64_t>(lane_ops_, w, op.src[1], mask);
      if (!x || !y) return false;
      into_lanes(&w.wide[op.dst_base], mask, op.in_place, [&](uint64_t* out) { op.wide(x, y, out); });
      break;
    }
    case LaneOp::Form::Widening: {
      const uint32_t* x = lanes_of<uint32_t>(lane_ops_, w, op.src[0], mask);
      const uint32_t* y = lanes_of<uint32_t>(lane_ops_, w, op.src[1], mask);
      const uint64_t* z = lanes_of<uint64_t>(lane_ops_, w, op.src[2], mask);
      if (!x || !y || !z) return false;
      into_lanes(&w.wide[op.dst_base], mask, op.in_place, [&](uint64_t* out) { op.widening(x, y, z, out); });
      break;
    }
    case LaneOp::Form::Compare: {
      const uint32_t* x = lanes_of<uint32_t>(lane_ops_, w, op.src[0], mask);
      const uint32_t* y = lanes_of<uint32_t>(lane_ops_, w, op.src[1], mask);
      if (!x || !y) return false;
      const uint32_t holds = op.compare(mask, x, y);
      write_predicate(w, op.dst, mask, holds);
      if (op.dst2 != kernel::kNoReg) write_predicate(w, op.dst2, mask, ~holds & mask);
      return true;  // write_predicate marks the lanes written
    }
    case LaneOp::Form::Special: {
      into_lanes(&w.narrow[op.dst_base], mask, op.in_place, [&](uint32_t* out) { special_lanes(w, b, op.special, out); });
      break;
    }
  }
  w.defined[op.dst] |= mask;
  return true;
}

}  // namespace gpusim::exec
