// Functional semantics of the decoded IR: executes one warp instruction at a time on
// the warp's active lanes, computing results, addresses and branch outcomes. Knows
// nothing about cycles; the timing model drives it (execute at issue).
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "exec/device_memory.hpp"
#include "exec/exec_error.hpp"
#include "exec/lane_ops.hpp"
#include "exec/access_ranges.hpp"
#include "exec/store_log.hpp"
#include "exec/warp_state.hpp"
#include "kernel/ir.hpp"
#include "kernel/register_slots.hpp"

namespace gpusim::exec {

struct LaneSpan;  // exec/lane_span.hpp

template <typename F>
inline void for_each_lane(uint32_t mask, F&& f) {
  if (mask == 0xFFFFFFFFu) {  // the common case: a counted loop the compiler can vectorise
    for (uint32_t lane = 0; lane < 32; ++lane) f(lane);
    return;
  }
  while (mask) {
    const uint32_t lane = static_cast<uint32_t>(std::countr_zero(mask));
    mask &= mask - 1;
    f(lane);
  }
}

// Copies the lanes of `mask` from `values` to `dst` (a register's lanes).
template <typename T>
inline void write_lanes(T* dst, const T* values, uint32_t mask) {
  if (mask == 0xFFFFFFFFu) std::memcpy(dst, values, sizeof(T) * kWarpSize);  // fixed size: inline moves, no call
  else for_each_lane(mask, [&](uint32_t lane) { dst[lane] = values[lane]; });
}

// One printf a thread made, in the order the simulation executed them.
struct PrintfRecord {
  std::array<uint32_t, 3> block{};
  std::array<uint32_t, 3> thread{};
  std::string text;
};

// Where printf output goes: CUDA's FIFO holds 1 MB per launch (cudaLimitPrintfFifoSize);
// what does not fit is dropped, as on the GPU, and counted.
struct PrintfSink {
  static constexpr size_t kFifoBytes = 1 << 20;
  std::vector<PrintfRecord> records;
  size_t bytes = 0;
  uint64_t dropped = 0;
};

// Out-of-bounds accesses of a launch run with --out-of-bounds continue: where the GPU would
// not stop (a read or write that lands next to a buffer), the run goes on; loads read zeros,
// stores are dropped, and every access is counted here, per instruction.
struct OutOfBoundsLog {
  static constexpr size_t kMaxSites = 16;  // instructions listed; the rest are only counted
  struct Site {
    int32_t pc = 0;
    uint64_t count = 0;
    std::string first;  // the first access: where, who and what, as a fault would say it
  };
  uint64_t loads = 0, stores = 0;  // atomics count as stores
  std::vector<Site> sites;
  uint64_t unlisted = 0;  // accesses by instructions past kMaxSites
  uint64_t total() const { return loads + stores; }
};

struct LaunchConfig {
  std::array<uint32_t, 3> grid{1, 1, 1};
  std::array<uint32_t, 3> block{1, 1, 1};
  uint32_t dynamic_shared_bytes = 0;
  int preferred_carveout = -1;  // percent of the shared capacity the kernel prefers (timing only); -1: none
  std::vector<uint8_t> params;  // the kernel's parameter buffer, laid out per Program::params
  std::string origin;           // where the launch was asked for ("w.yaml:12"), for messages; may be empty
  PrintfSink* printf_sink = nullptr;  // where the kernel's printf output goes; null: discarded
  OutOfBoundsLog* out_of_bounds = nullptr;  // non-null: log out-of-bounds accesses and continue; null: fault
  uint32_t threads_per_block() const { return block[0] * block[1] * block[2]; }
  uint32_t warps_per_block() const { return (threads_per_block() + kWarpSize - 1) / kWarpSize; }
  uint64_t block_count() const { return uint64_t{grid[0]} * grid[1] * grid[2]; }
};

enum class StepStatus { Ok, Barrier, Exited };


// What one step did, for the caller (the block runner now, the timing model later).
struct StepResult {
  StepStatus status = StepStatus::Ok;
  const kernel::Instruction* instruction = nullptr;
  uint32_t active_mask = 0;     // lanes active on the SIMT path (what SIMT efficiency counts)
  uint32_t executed_mask = 0;   // of those, lanes whose guard predicate held
  uint32_t barrier_id = 0;      // Barrier
  uint32_t barrier_threads = 0; // Barrier: expected threads, 0 for the whole block
  bool barrier_waits = true;    // false for bar.arrive
  kernel::StateSpace memory_space = kernel::StateSpace::Generic;  // ld/st/atom: the space it resolved to
  // ld/st: whether the lanes are one run, a full warp with lane l at lane 0's address + l x
  // access_bytes (util::consecutive_lanes); unset where not worked out
  std::optional<bool> one_run;
  const uint64_t* addresses = nullptr;  // ld/st/atom: each executed lane's address in that space
  uint32_t access_bytes = 0;            // ld/st/atom: bytes each lane accesses
  // ld/st: set when the access is a full warp each of whose half-warps' addresses step by
  // this many bytes, none wrapping (the bank model then looks at four lanes, not 32)
  std::optional<uint64_t> half_stride;
  uint32_t distinct_values = 1;         // match.sync: distinct values among the lanes (it serialises over them)
  uint32_t sleep_ns = 0;                // nanosleep: the delay asked for
};

class Executor {
 public:
  Executor(const kernel::Program& program, DeviceMemory& memory, const LaunchConfig& launch);

  BlockState make_block(uint64_t linear_index) const;
  // Makes `b` block `linear_index`, fresh, reusing its storage.
  void reset_block(BlockState& b, uint64_t linear_index) const;
  // Makes `w` a fresh warp, reusing its storage. Registers are not cleared: the
  // written-lanes masks already stop reads of anything this warp has not written.
  void reset_warp(WarpState& w, const BlockState& block, uint32_t warp_in_block) const;

  // Executes the instruction at the warp's PC and advances it, reconverging after it.
  StepResult step(WarpState& w, BlockState& b) {
    StepResult r = execute(w, b);
    reconverge(w);
    return r;
  }

  // The PC of the warp's next instruction, or -1 when every lane has exited. The stack's
  // top is always a live entry (step and reset_warp reconverge), so this only reads it: the
  // timing model asks it three or four times per instruction.
  int32_t peek(const WarpState& w) const {
    if (w.stack.empty()) return -1;
    const int32_t pc = w.stack.back().pc;
    return pc < last_pc_ ? pc : last_pc_;
  }

  // Clock readings for %clock/%clock64 and %smid, set by whoever drives execution.
  void set_clock(uint64_t c) { clock_ = c; }
  // %globaltimer counts nanoseconds: the timing model sets the clock period.
  void set_ns_per_cycle(double ns) { ns_per_cycle_ = ns; }
  void set_printf_sink(PrintfSink* sink) { printf_ = sink; }
  void set_sm_id(uint32_t sm) { sm_id_ = sm; }
  // Global stores go to `log` (applied later, in SM order) and loads read through it; null:
  // straight to memory. So do global atomics whose value the kernel never reads, as updates of
  // their words; the others run with no log (kernel::atomics_need_sm_order).
  void set_store_log(StoreLog* log) { stores_ = log; }
  // Device memory the loads read goes to `reads` too (blocks side by side; see run_functional).
  void set_read_ranges(ReadRanges* reads) { reads_ = reads; }

  // Barrier completion, called by whoever runs the block: `barriers` (one bit per id) have
  // completed; then each warp they release gets its bar.red result.
  static void complete_barriers(BlockState& b, uint32_t barriers);
  void barrier_released(WarpState& w, const BlockState& b) const;

  [[noreturn]] void fault(const WarpState& w, const BlockState& b, uint32_t lane, const std::string& what) const;
  // "kernel K, pc N (file.cu:L; x.ptx:P, op), block (..), thread (..): what"
  std::string describe(const WarpState& w, const BlockState& b, uint32_t lane, const std::string& what) const;
  const kernel::Program& program() const { return program_; }
  uint32_t warps_per_block() const { return launch_.warps_per_block(); }

 private:
  using Instruction = kernel::Instruction;
  using Operand = kernel::Operand;

  // One lane of a register: 32-bit registers read back zero-extended.
  uint64_t load(const WarpState& w, uint32_t reg, uint32_t lane) const {
    const size_t i = size_t{slots_.slot[reg]} * kWarpSize + lane;
    return program_.reg_wide[reg] ? w.wide[i] : w.narrow[i];
  }
  void store(WarpState& w, uint32_t reg, uint32_t lane, uint64_t v) const {
    const size_t i = size_t{slots_.slot[reg]} * kWarpSize + lane;
    if (program_.reg_wide[reg]) w.wide[i] = v;
    else w.narrow[i] = static_cast<uint32_t>(v);
  }

  // Operand access for one lane; values are raw bits, interpreted by the instruction type.
  uint64_t read(WarpState& w, const BlockState& b, const Operand& o, uint32_t lane) const {
    switch (o.kind) {
      case Operand::Kind::Reg: {
        const uint64_t v = (w.defined[o.reg] >> lane & 1u) ? load(w, o.reg, lane) : 0;  // never written: 0
        return o.negate ? (v ^ 1u) : v;
      }
      case Operand::Kind::Imm: return static_cast<uint64_t>(o.imm) + (o.frame ? w.fp(lane) : 0);
      case Operand::Kind::Special: return special(w, b, o.special, lane);
      default: return 0;
    }
  }
  uint64_t read_reg(WarpState& w, const BlockState& b, uint32_t reg, uint32_t lane) const {
    Operand o;
    o.kind = Operand::Kind::Reg;
    o.reg = reg;
    return read(w, b, o, lane);
  }
  void write(WarpState& w, uint32_t reg, uint32_t lane, uint64_t v) const {
    store(w, reg, lane, v);
    w.defined[reg] |= 1u << lane;
  }

  // Whole-warp operand access: one check and one copy per operand, not per lane.
  void gather(WarpState& w, const BlockState& b, const Operand& o, uint32_t mask, uint64_t* out) const {
    if (o.kind == Operand::Kind::Reg) {
      const size_t base = size_t{slots_.slot[o.reg]} * kWarpSize;
      if (program_.reg_wide[o.reg]) std::copy(&w.wide[base], &w.wide[base] + kWarpSize, out);
      else std::copy(&w.narrow[base], &w.narrow[base] + kWarpSize, out);  // zero-extends
      // A lane that never wrote the register reads 0 (the GPU's value is undefined, and code
      // such as CUB's partial tiles moves such values around without using them).
      if (const uint32_t missing = mask & ~w.defined[o.reg]) for_each_lane(missing, [&](uint32_t l) { out[l] = 0; });
      if (o.negate)
        for (int l = 0; l < kWarpSize; ++l) out[l] ^= 1u;
    } else if (o.kind == Operand::Kind::Imm && !o.frame) {
      std::fill(out, out + kWarpSize, static_cast<uint64_t>(o.imm));
    } else if (o.kind == Operand::Kind::Special) {
      special_lanes(w, b, o.special, out);
    } else {
      for_each_lane(mask, [&](uint32_t lane) { out[lane] = read(w, b, o, lane); });
    }
  }
  // The operand's lanes in place, without a widened copy: a register of T's width (32-bit
  // slots for uint32_t, 64-bit for uint64_t) every lane of `mask` has written (not negated),
  // or an immediate in `scratch`. Null where the operand needs gather().
  template <typename T>
  const T* view(const WarpState& w, const Operand& o, uint32_t mask, T* scratch) const {
    constexpr bool wide = sizeof(T) == sizeof(uint64_t);
    if (o.kind == Operand::Kind::Reg) {
      if (o.negate || program_.reg_wide[o.reg] != wide || (mask & ~w.defined[o.reg])) return nullptr;
      const size_t base = size_t{slots_.slot[o.reg]} * kWarpSize;
      if constexpr (wide) return &w.wide[base];
      else return &w.narrow[base];
    }
    if (o.kind != Operand::Kind::Imm || o.frame) return nullptr;
    std::fill(scratch, scratch + kWarpSize, static_cast<T>(o.imm));
    return scratch;
  }
  const uint32_t* narrow_view(const WarpState& w, const Operand& o, uint32_t mask, uint32_t* scratch) const {
    return view(w, o, mask, scratch);
  }
  const uint64_t* wide_view(const WarpState& w, const Operand& o, uint32_t mask, uint64_t* scratch) const {
    return view(w, o, mask, scratch);
  }
  // Writes the lanes of `mask` of a 32-bit register from `values`.
  void scatter32(WarpState& w, uint32_t reg, uint32_t mask, const uint32_t* values) const {
    write_lanes(&w.narrow[size_t{slots_.slot[reg]} * kWarpSize], values, mask);
    w.defined[reg] |= mask;
  }
  void scatter(WarpState& w, uint32_t reg, uint32_t mask, const uint64_t* values) const {
    const size_t base = size_t{slots_.slot[reg]} * kWarpSize;
    if (program_.reg_wide[reg]) {
      write_lanes(&w.wide[base], values, mask);
    } else {
      uint32_t* dst = &w.narrow[base];
      if (mask == 0xFFFFFFFFu) {
        for (int l = 0; l < kWarpSize; ++l) dst[l] = static_cast<uint32_t>(values[l]);
      } else {
        for_each_lane(mask, [&](uint32_t lane) { dst[lane] = static_cast<uint32_t>(values[lane]); });
      }
    }
    w.defined[reg] |= mask;
  }
  // A predicate's lanes of `mask` from a mask: 1 where `holds` has the lane's bit, else 0.
  void write_predicate(WarpState& w, uint32_t reg, uint32_t mask, uint32_t holds) const;
  uint64_t special(const WarpState& w, const BlockState& b, kernel::SpecialReg s, uint32_t lane) const;
  // The special register for every lane of the warp (thread indices without a division per lane).
  template <typename T>  // uint32_t: a 32-bit register keeps the low bits; uint64_t
  void special_lanes(const WarpState& w, const BlockState& b, kernel::SpecialReg s, T* out) const;
  // The reserved shared region follows the kernel's static and dynamic shared memory.
  uint32_t reserved_shared_base() const {
    const uint32_t end = program_.dynamic_shared_offset + launch_.dynamic_shared_bytes;
    return program_.reserved_shared_bytes ? (end + 15) / 16 * 16 : end;
  }
  uint32_t guard_mask(WarpState& w, const BlockState& b, const Instruction& in, uint32_t active) const;

  void branch(WarpState& w, const Instruction& in, uint32_t active, uint32_t taken);
  // Device functions (calls.cpp): a call pushes frames and a SIMT entry, a return pops them per lane.
  void call(WarpState& w, BlockState& b, const Instruction& in, uint32_t mask);
  void function_return(WarpState& w, BlockState& b, uint32_t mask);
  void builtin_call(WarpState& w, BlockState& b, const kernel::CallSite& site, uint32_t mask);
  std::string format_printf(WarpState& w, BlockState& b, uint32_t lane, uint64_t format, uint64_t args);
  std::string device_string(WarpState& w, BlockState& b, uint32_t lane, uint64_t addr);
  void exit_lanes(WarpState& w, uint32_t lanes);
  StepResult execute(WarpState& w, BlockState& b);
  // The elements each lane of an ld/st accesses: its vector's width (StepResult::access_bytes
  // is its type's bytes times this).
  static uint32_t vector_width(const Instruction& in) { return in.vec > 1 ? in.vec : 1; }
  // Pops the SIMT entries that are done: those at their reconvergence point, and those with
  // no live lane.
  static void reconverge(WarpState& w) {
    while (!w.stack.empty() && (w.stack.back().pc == w.stack.back().reconverge_pc || w.active_mask() == 0))
      w.stack.pop_back();
  }

  // Per-family semantics (alu.cpp, memory_ops.cpp, atomics.cpp).
  void alu(WarpState& w, const BlockState& b, const Instruction& in, uint32_t mask);
  // One of the most frequent instructions in place on the registers, as decoded in lane_ops_
  // (lane_ops_run.hpp); false: a lane reads a register it never wrote (the general path runs it).
  bool run_decoded(WarpState& w, const BlockState& b, const LaneOp& op, uint32_t mask);
  void half_alu(WarpState& w, const BlockState& b, const Instruction& in, uint32_t mask, const uint64_t* ra,
                const uint64_t* rb, const uint64_t* rc);
  void carry_chain(WarpState& w, const Instruction& in, uint32_t mask, const uint64_t* ra, const uint64_t* rb,
                   const uint64_t* rc);
  void setp(WarpState& w, const BlockState& b, const Instruction& in, uint32_t mask);
  void convert(WarpState& w, const BlockState& b, const Instruction& in, uint32_t mask);
  void move(WarpState& w, const BlockState& b, const Instruction& in, uint32_t mask);
  void load_store(WarpState& w, BlockState& b, const Instruction& in, uint32_t mask);
  void atomic(WarpState& w, BlockState& b, const Instruction& in, uint32_t mask);
  void async_copy(WarpState& w, BlockState& b, const Instruction& in, uint32_t mask);
  void barrier_arrive(WarpState& w, BlockState& b, const Instruction& in, uint32_t mask, StepResult& r);
  void shuffle(WarpState& w, const BlockState& b, const Instruction& in, uint32_t mask);
  void vote(WarpState& w, const BlockState& b, const Instruction& in, uint32_t mask);
  void warp_op(WarpState& w, const BlockState& b, const Instruction& in, uint32_t mask);  // activemask, redux, match
  void permute(WarpState& w, const BlockState& b, const Instruction& in, uint32_t mask);
  void funnel_shift(WarpState& w, const BlockState& b, const Instruction& in, uint32_t mask);

  // The host address of `lanes.lo` where every lane of `mask` is aligned and the warp's span lies
  // inside one buffer (or the block's shared memory, or the parameters), so that one bounds
  // check serves all lanes; null otherwise (each lane is then checked on its own).
  uint8_t* warp_span(const LaneSpan& lanes, kernel::StateSpace space, BlockState& b, uint32_t bytes,
                     uint32_t mask);
  // An out-of-bounds access: a fault, or with an OutOfBoundsLog, logged, and zeros to read
  // (or a place to drop a store).
  uint8_t* out_of_bounds(WarpState& w, BlockState& b, uint32_t lane, const std::string& what, bool store);
  // Host pointer for a lane's access of `size` bytes in `space`; faults when out of bounds.
  uint8_t* address(WarpState& w, BlockState& b, kernel::StateSpace space, uint64_t addr, uint32_t size, uint32_t lane,
                   const char* what);

  const kernel::Program& program_;
  const kernel::RegisterSlots slots_;  // where each register lives in a warp's state
  const LaneOps lane_ops_;             // the most frequent instructions, decoded (lane_ops.cpp)
  const int32_t last_pc_;              // the program's last instruction (a PC past it: an implicit exit)
  DeviceMemory& memory_;
  const LaunchConfig& launch_;
  uint64_t clock_ = 0;
  double ns_per_cycle_ = 1.0;
  PrintfSink* printf_ = nullptr;
  uint32_t sm_id_ = 0;
  StoreLog* stores_ = nullptr;
  ReadRanges* reads_ = nullptr;
  size_t region_hint_ = 0;  // the device memory region this executor's accesses last fell in
  kernel::StateSpace last_space_ = kernel::StateSpace::Generic;
  uint32_t distinct_values_ = 1;  // of the last match.sync
  uint64_t addresses_[kWarpSize] = {};
  std::optional<uint64_t> half_stride_;  // of the last ld/st: StepResult's
  std::optional<bool> one_run_;          // likewise
  alignas(16) uint8_t oob_scratch_[64] = {};  // what an out-of-bounds access reads or writes when the run goes on
};

}  // namespace gpusim::exec
