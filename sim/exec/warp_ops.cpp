// Warp-wide operations of sm_70 and sm_80: __activemask, __reduce_*_sync (redux.sync),
// __match_any_sync / __match_all_sync (match.sync).
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
  uint32_t counted = 0;  // lanes whose value has been counted: the timing model serialises over values
  distinct_values_ = 0;
  for_each_lane(mask, [&](uint32_t lane) {
    const uint32_t group = static_cast<uint32_t>(members[lane]);
    uint32_t same = 0;
    for_each_lane(group, [&](uint32_t j) {
      if (low_bits(v[j], bits) == low_bits(v[lane], bits)) same |= 1u << j;
    });
    if (!(counted >> lane & 1u)) ++distinct_values_;
    counted |= same;
    const bool everyone = same == group;
    write(w, in.dst.reg, lane, all ? (everyone ? group : 0u) : same);
    if (all && in.dst2.kind == kernel::Operand::Kind::Reg) write(w, in.dst2.reg, lane, everyone);
  });
}

}  // namespace gpusim::exec
