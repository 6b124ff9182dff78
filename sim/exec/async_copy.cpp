#include <algorithm>
#include <cstring>

#include "exec/executor.hpp"
#include "exec/value.hpp"
#include "util/bits.hpp"

namespace gpusim::exec {

using kernel::DataType;
using kernel::StateSpace;

// cp.async: each lane copies cp-size bytes from global to shared memory, the first src-size of
// them from the source and the rest zeros. The copy is done here, at issue: a program may
// read the destination only after waiting for it, so no program can tell the difference.
void Executor::async_copy(WarpState& w, BlockState& b, const Instruction& in, uint32_t mask) {
  const uint32_t size = static_cast<uint32_t>(in.src[2].imm);
  const bool has_fourth = in.num_src > 3;
  const bool ignore_src_operand = has_fourth && in.type2 == DataType::Pred;
  uint64_t dst[kWarpSize] = {}, src[kWarpSize] = {}, fourth[kWarpSize] = {};
  const auto addresses = [&](const Operand& a, uint64_t* out) {
    if (a.reg != kernel::kNoReg) {
      Operand base;
      base.kind = Operand::Kind::Reg;
      base.reg = a.reg;
      gather(w, b, base, mask, out);
    }
    for_each_lane(mask, [&](uint32_t lane) { out[lane] += static_cast<uint64_t>(a.imm); });
  };
  addresses(in.src[0], dst);
  addresses(in.src[1], src);
  if (has_fourth) gather(w, b, in.src[3], mask, fourth);
  for_each_lane(mask, [&](uint32_t lane) {
    uint64_t copied = size;
    if (ignore_src_operand) copied = (fourth[lane] & 1u) ? 0 : size;
    else if (has_fourth) copied = low_bits(fourth[lane], 32);
    if (copied > size)
      fault(w, b, lane, "cp.async src-size " + std::to_string(copied) + " is more than its copy size " + std::to_string(size));
    uint8_t* to = address(w, b, StateSpace::Shared, dst[lane] & 0xFFFFFFFFu, size, lane, "cp.async destination");
    if (src[lane] % size != 0)
      fault(w, b, lane, "misaligned global cp.async source of " + std::to_string(size) + " bytes at " + hex(src[lane]));
    if (copied > 0) {
      uint8_t* from = address(w, b, StateSpace::Global, src[lane], static_cast<uint32_t>(copied) == size ? size : 1,
                                    lane, "cp.async source");
      if (copied != size && !memory_.translate(src[lane], static_cast<uint32_t>(copied), region_hint_))
        from = out_of_bounds(w, b, lane,
                             "out-of-bounds global cp.async source of " + std::to_string(copied) + " bytes at " +
                                 hex(src[lane]) + " (" + memory_.describe(src[lane]) + ")",
                             false);
      if (reads_) reads_->add(from, copied);
      if (stores_) stores_->read(from, to, static_cast<uint32_t>(copied));
      else std::memmove(to, from, copied);  // both may be the out-of-bounds scratch
    }
    std::memset(to + copied, 0, size - copied);
    addresses_[lane] = src[lane];
  });
}

}  // namespace gpusim::exec
