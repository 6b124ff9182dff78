// Warp-wide operations: shfl.sync and vote.sync, and those of sm_70 and sm_80: __activemask,
// __reduce_*_sync (redux.sync), __match_any_sync / __match_all_sync (match.sync).
#include <string>

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

void Executor::shuffle(WarpState& w, const BlockState& b, const Instruction& in, uint32_t mask) {
  // PTX ISA shfl.sync: c packs the clamp value (bits 4:0) and the segment mask (bits 12:8).
  // Each operand's lanes are read once for the warp (a lane reads its own lanes of b and c,
  // and a write touches only its own lane of the destination, so reading them all first
  // gives what reading each lane's as it is written would).
  uint64_t value[kWarpSize], lane_b[kWarpSize], lane_c[kWarpSize], out[kWarpSize];
  gather(w, b, in.src[0], mask, value);
  gather(w, b, in.src[1], mask, lane_b);
  gather(w, b, in.src[2], mask, lane_c);
  const auto mode = static_cast<kernel::ShflMode>(in.mode);
  uint32_t valid_lanes = 0;
  for_each_lane(mask, [&](uint32_t lane) {
    const uint32_t bval = static_cast<uint32_t>(lane_b[lane]) & 31u;
    const auto c = static_cast<uint32_t>(lane_c[lane]);
    const uint32_t clamp = c & 31u, segmask = (c >> 8) & 31u;
    const uint32_t max_lane = (lane & segmask) | (clamp & ~segmask);
    const uint32_t min_lane = lane & segmask;
    int32_t j = 0;
    bool valid = false;
    switch (mode) {
      case kernel::ShflMode::Up: j = static_cast<int32_t>(lane) - static_cast<int32_t>(bval); valid = j >= static_cast<int32_t>(max_lane); break;
      case kernel::ShflMode::Down: j = static_cast<int32_t>(lane + bval); valid = j <= static_cast<int32_t>(max_lane); break;
      case kernel::ShflMode::Bfly: j = static_cast<int32_t>(lane ^ bval); valid = j <= static_cast<int32_t>(max_lane); break;
      case kernel::ShflMode::Idx: j = static_cast<int32_t>(min_lane | (bval & ~segmask)); valid = j <= static_cast<int32_t>(max_lane); break;
    }
    if (!valid) j = static_cast<int32_t>(lane);
    if (!(mask >> j & 1u))  // the lanes taking part are the ones whose values were read
      fault(w, b, lane, "shfl reads lane " + std::to_string(j) + ", which is not taking part in the shuffle");
    out[lane] = low_bits(value[j], 32);
    valid_lanes |= uint32_t{valid} << lane;
  });
  scatter(w, in.dst.reg, mask, out);
  if (in.dst2.kind == Operand::Kind::Reg) write_predicate(w, in.dst2.reg, mask, valid_lanes);
}

void Executor::vote(WarpState& w, const BlockState& b, const Instruction& in, uint32_t mask) {
  uint64_t predicate[kWarpSize];
  gather(w, b, in.src[0], mask, predicate);
  uint32_t ballot = 0;
  for_each_lane(mask, [&](uint32_t lane) { ballot |= static_cast<uint32_t>(predicate[lane] & 1u) << lane; });
  uint64_t result = 0;
  switch (static_cast<kernel::VoteMode>(in.mode)) {
    case kernel::VoteMode::Ballot: result = ballot; break;
    case kernel::VoteMode::All: result = ballot == mask; break;
    case kernel::VoteMode::Any: result = ballot != 0; break;
    case kernel::VoteMode::Uni: result = ballot == 0 || ballot == mask; break;
  }
  for_each_lane(mask, [&](uint32_t lane) { write(w, in.dst.reg, lane, result); });
}

}  // namespace gpusim::exec
