#include "exec/executor.hpp"

#include <array>
#include <chrono>
#include <cstdio>

#include "exec/lane_ops_run.hpp"
#include "util/bits.hpp"

namespace gpusim::exec {

using kernel::Opcode;
using kernel::SpecialReg;

Executor::Executor(const kernel::Program& program, DeviceMemory& memory, const LaunchConfig& launch)
    : program_(program),
      slots_(kernel::assign_register_slots(program)),
      lane_ops_(program, slots_),
      last_pc_(static_cast<int32_t>(program.code.size()) - 1),
      memory_(memory),
      launch_(launch),
      printf_(launch.printf_sink) {}

BlockState Executor::make_block(uint64_t linear) const {
  BlockState b;
  reset_block(b, linear);
  return b;
}

void Executor::reset_block(BlockState& b, uint64_t linear) const {
  b.linear_index = static_cast<uint32_t>(linear);
  b.index = {static_cast<uint32_t>(linear % launch_.grid[0]),
             static_cast<uint32_t>(linear / launch_.grid[0] % launch_.grid[1]),
             static_cast<uint32_t>(linear / (uint64_t{launch_.grid[0]} * launch_.grid[1]))};
  b.shared.assign(reserved_shared_base() + program_.reserved_shared_bytes, 0);
  b.reducing.fill({});
  b.reduced.fill({});
}

void Executor::reset_warp(WarpState& w, const BlockState&, uint32_t warp_in_block) const {
  w.warp_in_block = warp_in_block;
  const uint32_t threads = launch_.threads_per_block();
  const uint32_t first = warp_in_block * kWarpSize;
  const uint32_t lanes = std::min<uint32_t>(kWarpSize, threads - first);
  w.valid_mask = lanes == 32 ? 0xFFFFFFFFu : ((1u << lanes) - 1);
  w.exited = 0;
  w.carry_flag = 0;
  w.waiting = false;
  w.stack.clear();
  w.stack.push_back({0, -1, w.valid_mask});  // live: no lane has exited, and -1 is never reached
  w.narrow.resize(size_t{slots_.narrow} * kWarpSize);
  w.wide.resize(size_t{slots_.wide} * kWarpSize);
  w.defined.assign(program_.reg_names.size(), 0);
  w.local.assign(size_t{program_.local_bytes} * kWarpSize, 0);  // local memory starts zeroed
  if (w.calls) {
    w.calls->fp.fill(0);
    for (auto& c : w.calls->calls) c.clear();
    for (auto& s : w.calls->saved) s.clear();
  }
}

void Executor::fault(const WarpState& w, const BlockState& b, uint32_t lane, const std::string& what) const {
  throw ExecError(describe(w, b, lane, what));
}

std::string Executor::describe(const WarpState& w, const BlockState& b, uint32_t lane, const std::string& what) const {
  const uint32_t tid = w.warp_in_block * kWarpSize + lane;
  const auto& blk = launch_.block;
  const int32_t pc = w.stack.empty() ? -1 : w.stack.back().pc;
  const bool known = pc >= 0 && pc < static_cast<int32_t>(program_.code.size());
  const int line = known ? program_.code[pc].line : 0;
  // The CUDA line first, when the PTX carries it (.loc, nvcc -lineinfo): "stencil.cu:27; x.ptx:38".
  std::string place = program_.file + ":" + std::to_string(line);
  if (known && program_.code[pc].source_line > 0 && program_.code[pc].source_file < program_.source_files.size())
    place = program_.source_files[program_.code[pc].source_file] + ":" + std::to_string(program_.code[pc].source_line) +
            "; " + place;
  const char* op = known ? kernel::opcode_name(program_.code[pc].op) : "?";
  char who[160];
  std::snprintf(who, sizeof who, "), block (%u,%u,%u), thread (%u,%u,%u): ", b.index[0], b.index[1], b.index[2],
                tid % blk[0], tid / blk[0] % blk[1], tid / (blk[0] * blk[1]));
  return "kernel " + program_.name + ", pc " + std::to_string(pc) + " (" + place + ", " + op + who + what;
}

uint64_t Executor::special(const WarpState& w, const BlockState& b, SpecialReg s, uint32_t lane) const {
  const uint32_t tid = w.warp_in_block * kWarpSize + lane;
  const auto& blk = launch_.block;
  switch (s) {
    case SpecialReg::TidX: return tid % blk[0];
    case SpecialReg::TidY: return tid / blk[0] % blk[1];
    case SpecialReg::TidZ: return tid / (blk[0] * blk[1]);
    case SpecialReg::NtidX: return blk[0];
    case SpecialReg::NtidY: return blk[1];
    case SpecialReg::NtidZ: return blk[2];
    case SpecialReg::CtaidX: return b.index[0];
    case SpecialReg::CtaidY: return b.index[1];
    case SpecialReg::CtaidZ: return b.index[2];
    case SpecialReg::NctaidX: return launch_.grid[0];
    case SpecialReg::NctaidY: return launch_.grid[1];
    case SpecialReg::NctaidZ: return launch_.grid[2];
    case SpecialReg::LaneId: return lane;
    case SpecialReg::WarpId: return w.warp_in_block;
    case SpecialReg::NWarpId: return launch_.warps_per_block();
    case SpecialReg::SmId: return sm_id_;
    case SpecialReg::NSmId: return sm_id_ + 1;
    case SpecialReg::Clock: return clock_ & 0xFFFFFFFFu;
    case SpecialReg::Clock64: return clock_;
    case SpecialReg::GlobalTimer: return static_cast<uint64_t>(static_cast<double>(clock_) * ns_per_cycle_);
    case SpecialReg::LanemaskEq: return 1u << lane;
    case SpecialReg::LanemaskLt: return (1u << lane) - 1;
    case SpecialReg::LanemaskLe: return lane == 31 ? 0xFFFFFFFFu : (2u << lane) - 1;
    case SpecialReg::LanemaskGt: return lane == 31 ? 0u : ~((2u << lane) - 1);
    case SpecialReg::LanemaskGe: return ~((1u << lane) - 1);
    // gpusim's layout of the reserved region: offset_0 its first half, offset_1 its second.
    case SpecialReg::ReservedSmemBegin:
    case SpecialReg::ReservedSmem0: return reserved_shared_base();
    case SpecialReg::ReservedSmemEnd: return reserved_shared_base() + program_.reserved_shared_bytes;
    case SpecialReg::ReservedSmemCap: return program_.reserved_shared_bytes;
    case SpecialReg::ReservedSmem1: return reserved_shared_base() + program_.reserved_shared_bytes / 2;
  }
  return 0;
}

template <typename T>
void Executor::special_lanes(const WarpState& w, const BlockState& b, SpecialReg s, T* out) const {
  const bool thread_index = s == SpecialReg::TidX || s == SpecialReg::TidY || s == SpecialReg::TidZ;
  const bool per_lane = s == SpecialReg::LaneId || s == SpecialReg::LanemaskEq || s == SpecialReg::LanemaskLt ||
                        s == SpecialReg::LanemaskLe || s == SpecialReg::LanemaskGt || s == SpecialReg::LanemaskGe;
  if (per_lane) {
    for (uint32_t lane = 0; lane < kWarpSize; ++lane) out[lane] = static_cast<T>(special(w, b, s, lane));
    return;
  }
  if (!thread_index) {  // the same for the whole warp
    std::fill(out, out + kWarpSize, static_cast<T>(special(w, b, s, 0)));
    return;
  }
  // The first lane's index by division, the others by counting on from it.
  const auto& blk = launch_.block;
  const uint32_t first = w.warp_in_block * kWarpSize;
  std::array<uint32_t, 3> t{first % blk[0], first / blk[0] % blk[1], first / (blk[0] * blk[1])};
  const size_t axis = s == SpecialReg::TidX ? 0 : s == SpecialReg::TidY ? 1 : 2;
  if (t[0] + kWarpSize <= blk[0]) {  // the warp within one row of the block: x counts up, y and z stay
    for (uint32_t lane = 0; lane < kWarpSize; ++lane) out[lane] = axis == 0 ? t[0] + lane : t[axis];
    return;
  }
  for (uint32_t lane = 0; lane < kWarpSize; ++lane) {
    out[lane] = t[axis];
    if (++t[0] == blk[0]) {
      t[0] = 0;
      if (++t[1] == blk[1]) t[1] = 0, ++t[2];
    }
  }
}
template void Executor::special_lanes(const WarpState&, const BlockState&, SpecialReg, uint32_t*) const;
template void Executor::special_lanes(const WarpState&, const BlockState&, SpecialReg, uint64_t*) const;

uint32_t Executor::guard_mask(WarpState& w, const BlockState&, const Instruction& in, uint32_t active) const {
  if (in.guard == kernel::kNoReg) return active;
  if (!program_.reg_wide[in.guard]) {  // predicates live in the narrow registers: one pass, no branches
    uint32_t set = util::lanes_with_low_bit(&w.narrow[size_t{slots_.slot[in.guard]} * kWarpSize]);
    set &= w.defined[in.guard];  // never written: false
    return (in.guard_negated ? ~set : set) & active;
  }
  uint32_t mask = 0;
  for_each_lane(active, [&](uint32_t lane) {
    const bool p = (w.defined[in.guard] >> lane & 1u) && (load(w, in.guard, lane) & 1u);  // never written: false
    if (p != in.guard_negated) mask |= 1u << lane;
  });
  return mask;
}

void Executor::branch(WarpState& w, const Instruction& in, uint32_t active, uint32_t taken) {
  SimtEntry& top = w.stack.back();
  const int32_t target = static_cast<int32_t>(in.src[0].imm);
  if (taken == active) {
    top.pc = target;
  } else if (taken == 0) {
    ++top.pc;
  } else {
    // Diverge: this entry waits at the reconvergence point; both paths run to it.
    const int32_t fallthrough = top.pc + 1;
    const int32_t rpc = in.reconverge_pc;
    top.pc = rpc;
    w.stack.push_back({fallthrough, rpc, active & ~taken});
    w.stack.push_back({target, rpc, taken});
  }
}

void Executor::exit_lanes(WarpState& w, uint32_t lanes) {
  w.exited |= lanes;
  for (SimtEntry& e : w.stack) e.mask &= ~lanes;
}

StepResult Executor::execute(WarpState& w, BlockState& b) {
  StepResult r;
  if (w.stack.empty()) {
    r.status = StepStatus::Exited;
    return r;
  }
  SimtEntry& top = w.stack.back();
  if (top.pc > last_pc_) {  // fell off the end: implicit exit
    exit_lanes(w, top.mask);
    reconverge(w);
    r = execute(w, b);
    return r;  // one named result on every path: returned in place, not copied
  }
  const Instruction& in = program_.code[top.pc];
  const uint32_t active = w.active_mask();
  const uint32_t mask = in.guard == kernel::kNoReg ? active : guard_mask(w, b, in, active);  // most are unguarded: no call
  r.instruction = &in;
  r.active_mask = active;
  r.executed_mask = mask;

  // The most frequent forms first, decoded (lane_ops_run.hpp): the general paths are the rest.
  const LaneOp& decoded = lane_ops_.ops[static_cast<size_t>(top.pc)];
  if (decoded.form != LaneOp::Form::None && run_decoded(w, b, decoded, mask)) {
    ++top.pc;
    return r;
  }
  switch (in.op) {
    case Opcode::Bra: branch(w, in, active, mask); return r;
    case Opcode::Call: call(w, b, in, mask); return r;
    case Opcode::Ret:
      if (in.returns) {
        function_return(w, b, mask);
        if (mask != active) ++w.stack.back().pc;
        while (!w.stack.empty() && w.active_mask() == 0) w.stack.pop_back();
        return r;
      }
      [[fallthrough]];
    case Opcode::Exit:
      exit_lanes(w, mask);
      if (mask != active) ++w.stack.back().pc;
      while (!w.stack.empty() && w.active_mask() == 0) w.stack.pop_back();
      if (w.stack.empty()) r.status = StepStatus::Exited;
      return r;
    case Opcode::Bar:
      ++top.pc;
      if (mask != 0) barrier_arrive(w, b, in, mask, r);
      return r;
    case Opcode::Membar: break;
    case Opcode::Trap:  // __trap(), or a failed check in CUDA's headers: the launch fails on the GPU
      if (mask) fault(w, b, static_cast<uint32_t>(std::countr_zero(mask)), "trap: the kernel aborted");
      break;
    case Opcode::Setp: setp(w, b, in, mask); break;
    case Opcode::Mov: move(w, b, in, mask); break;
    case Opcode::Cvt:
    case Opcode::Cvta: convert(w, b, in, mask); break;
    case Opcode::Ld:
    case Opcode::St:
      last_space_ = in.space;
      load_store(w, b, in, mask);
      r.memory_space = last_space_;
      r.addresses = addresses_;
      r.access_bytes = static_cast<uint32_t>(kernel::type_bits(in.type) / 8) * vector_width(in);
      r.half_stride = half_stride_;
      r.one_run = one_run_;
      if (in.call_abi) r.memory_space = kernel::StateSpace::Param;  // registers on the GPU
      break;
    case Opcode::Atom:
    case Opcode::Red:
      last_space_ = in.space;
      atomic(w, b, in, mask);
      r.memory_space = last_space_;
      r.addresses = addresses_;
      r.access_bytes = static_cast<uint32_t>(kernel::type_bits(in.type) / 8);
      break;
    case Opcode::CpAsync:
      if (in.mode == static_cast<uint8_t>(kernel::CpAsyncMode::Copy)) {
        async_copy(w, b, in, mask);
        r.memory_space = kernel::StateSpace::Global;  // timed as the global load it is
        r.addresses = addresses_;
        r.access_bytes = static_cast<uint32_t>(in.src[2].imm);
      }
      break;  // its groups: the copy is done at issue, so waiting has no functional effect
    case Opcode::Shfl: shuffle(w, b, in, mask); break;
    case Opcode::Vote: vote(w, b, in, mask); break;
    case Opcode::WarpSync: break;  // a warp runs in lockstep here
    case Opcode::Nanosleep:  // no functional effect; the timing model sleeps, up to the 1 ms PTX allows
      if (mask) r.sleep_ns = static_cast<uint32_t>(std::min<uint64_t>(
                    read(w, b, in.src[0], static_cast<uint32_t>(std::countr_zero(mask))) & 0xFFFFFFFFu, 1'000'000));
      break;
    case Opcode::Activemask:
    case Opcode::Redux:
    case Opcode::Match:
      warp_op(w, b, in, mask);
      if (in.op == Opcode::Match) r.distinct_values = std::max(distinct_values_, 1u);
      break;
    default: alu(w, b, in, mask); break;
  }
  ++w.stack.back().pc;
  return r;
}

}  // namespace gpusim::exec
