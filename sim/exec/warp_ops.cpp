// Warp-wide operations of sm_70 and sm_80: __activemask, __reduce_*_sync (redux.sync),
// __match_any_sync / __match_all_sync (match.sync), and __byte_perm (prmt).
#include "exec/executor.hpp"
#include "exec/value.hpp"

namespace gpusim::exec {

using kernel::AtomOp;
using kernel::DataType;
using kernel::Opcode;

void Executor::warp_op(WarpState& w, const BlockState& b, const Instruction& in, uint32_t mask) {
  if (in.op == Opcode::Activemask) {
    for_each_lane(mask, [&](uint32_t lane) { write(w, in.dst.reg, lane, mask); });
    return;
  }
  uint64_t v[kWarpSize], members[kWarpSize];
  gather(w, b, in.src[0], mask, v);
  gather(w, b, in.src[1], mask, members);
  for_each_lane(mask, [&](uint32_t lane) {
    if (!(members[lane] >> lane & 1u))
      fault(w, b, lane, std::string(kernel::opcode_name(in.op)) + ".sync: the calling lane is not in its member mask");
    const uint32_t absent = static_cast<uint32_t>(members[lane]) & ~mask;
    if (absent)
      fault(w, b, lane, std::string(kernel::opcode_name(in.op)) + ".sync: lane " +
                            std::to_string(std::countr_zero(absent)) + " of the member mask is not executing it");
  });
  const int bits = kernel::type_bits(in.type);
  if (in.op == Opcode::Redux) {
    for_each_lane(mask, [&](uint32_t lane) {
      const uint32_t group = static_cast<uint32_t>(members[lane]);
      uint64_t acc = low_bits(v[lane], bits);
      for_each_lane(group, [&](uint32_t j) {
        if (j == lane) return;
        const uint64_t x = low_bits(v[j], bits);
        switch (static_cast<AtomOp>(in.mode)) {
          case AtomOp::Add: acc = low_bits(acc + x, bits); break;
          case AtomOp::Min:
            acc = kernel::is_signed(in.type) ? (sign_extend(x, bits) < sign_extend(acc, bits) ? x : acc) : std::min(acc, x);
            break;
          case AtomOp::Max:
            acc = kernel::is_signed(in.type) ? (sign_extend(x, bits) > sign_extend(acc, bits) ? x : acc) : std::max(acc, x);
            break;
          case AtomOp::And: acc &= x; break;
          case AtomOp::Or: acc |= x; break;
          case AtomOp::Xor: acc ^= x; break;
          default: fault(w, b, lane, "redux.sync: only add, min, max, and, or and xor exist");
        }
      });
      write(w, in.dst.reg, lane, acc);
    });
    return;
  }
  // match: the member lanes holding the same value (any), or all of them when all hold it (all).
  const bool all = static_cast<kernel::MatchMode>(in.mode) == kernel::MatchMode::All;
  for_each_lane(mask, [&](uint32_t lane) {
    const uint32_t group = static_cast<uint32_t>(members[lane]);
    uint32_t same = 0;
    for_each_lane(group, [&](uint32_t j) {
      if (low_bits(v[j], bits) == low_bits(v[lane], bits)) same |= 1u << j;
    });
    const bool everyone = same == group;
    write(w, in.dst.reg, lane, all ? (everyone ? group : 0u) : same);
    if (all && in.dst2.kind == kernel::Operand::Kind::Reg) write(w, in.dst2.reg, lane, everyone);
  });
}

// prmt.b32 d, a, b, c: picks bytes of the 8-byte value {b, a} by the selector c.
void Executor::permute(WarpState& w, const BlockState& b, const Instruction& in, uint32_t mask) {
  uint64_t ra[kWarpSize], rb[kWarpSize], rc[kWarpSize];
  gather(w, b, in.src[0], mask, ra);
  gather(w, b, in.src[1], mask, rb);
  gather(w, b, in.src[2], mask, rc);
  const auto mode = static_cast<kernel::PrmtMode>(in.mode);
  for_each_lane(mask, [&](uint32_t lane) {
    const uint64_t bytes = (rb[lane] & 0xFFFFFFFFu) << 32 | (ra[lane] & 0xFFFFFFFFu);
    const auto byte = [&](uint32_t i) { return static_cast<uint32_t>(bytes >> (8 * (i & 7)) & 0xFF); };
    const uint32_t c = static_cast<uint32_t>(rc[lane]);
    uint32_t sel[4] = {};
    switch (mode) {
      case kernel::PrmtMode::Default:
        for (int k = 0; k < 4; ++k) sel[k] = c >> (4 * k) & 0xF;
        break;
      case kernel::PrmtMode::F4e: for (uint32_t k = 0; k < 4; ++k) sel[k] = ((c & 3) + k) & 7; break;
      case kernel::PrmtMode::B4e: for (uint32_t k = 0; k < 4; ++k) sel[k] = ((c & 3) - k) & 7; break;
      case kernel::PrmtMode::Rc8: for (auto& s : sel) s = c & 3; break;
      case kernel::PrmtMode::Ecl: for (uint32_t k = 0; k < 4; ++k) sel[k] = std::max(k, c & 3); break;
      case kernel::PrmtMode::Ecr: for (uint32_t k = 0; k < 4; ++k) sel[k] = std::min(k, c & 3); break;
      case kernel::PrmtMode::Rc16: {
        const uint32_t h = (c & 1) * 2;
        sel[0] = sel[2] = h;
        sel[1] = sel[3] = h + 1;
        break;
      }
    }
    uint32_t d = 0;
    for (uint32_t k = 0; k < 4; ++k) {
      uint32_t v = byte(sel[k]);
      // The default mode's sign bit (selector bit 3) replicates the byte's top bit.
      if (mode == kernel::PrmtMode::Default && (sel[k] & 8)) v = (v & 0x80) ? 0xFF : 0;
      d |= v << (8 * k);
    }
    write(w, in.dst.reg, lane, d);
  });
}

}  // namespace gpusim::exec
