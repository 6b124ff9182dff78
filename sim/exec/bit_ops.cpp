// Lane-wise operations on the bytes and bits of register pairs: __byte_perm (prmt) and
// __funnelshift_l/_r (shf), which CUDA's headers also use for 64-bit rotates.
#include "exec/executor.hpp"
#include "exec/value.hpp"

namespace gpusim::exec {

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

// shf.l: the high word of {b:a} << n; shf.r: the low word of {b:a} >> n; .wrap takes n mod
// 32, .clamp saturates it at 32.
void Executor::funnel_shift(WarpState& w, const BlockState& b, const Instruction& in, uint32_t mask) {
  uint64_t ra[kWarpSize], rb[kWarpSize], rc[kWarpSize];
  gather(w, b, in.src[0], mask, ra);
  gather(w, b, in.src[1], mask, rb);
  gather(w, b, in.src[2], mask, rc);
  const bool right = in.mode & kernel::kShfRight, clamp = in.mode & kernel::kShfClamp;
  for_each_lane(mask, [&](uint32_t lane) {
    const uint64_t pair = (rb[lane] & 0xFFFFFFFFu) << 32 | (ra[lane] & 0xFFFFFFFFu);
    const uint32_t raw = static_cast<uint32_t>(rc[lane]);
    const uint32_t n = clamp ? std::min(raw, 32u) : raw & 31u;
    write(w, in.dst.reg, lane, right ? (pair >> n) & 0xFFFFFFFFu : (pair << n) >> 32);
  });
}

}  // namespace gpusim::exec
