#include "core/ptxas_schedule.hpp"

#include <algorithm>
#include <array>
#include <unordered_map>

#include "kernel/cfg.hpp"

namespace gpusim::core {
namespace {

using kernel::Instruction;
using kernel::Opcode;

// Reading a clock is volatile: ptxas keeps it where the program put it, or in-kernel timing
// would measure nothing.
bool reads_clock(const Instruction& in) {
  if (in.op != Opcode::Mov || in.src[0].kind != kernel::Operand::Kind::Special) return false;
  const kernel::SpecialReg s = in.src[0].special;
  return s == kernel::SpecialReg::Clock || s == kernel::SpecialReg::Clock64 || s == kernel::SpecialReg::GlobalTimer;
}
bool is_fence(const Instruction& in) {
  return in.op == Opcode::Bar || in.op == Opcode::Membar || in.op == Opcode::Call || in.op == Opcode::WarpSync ||
         in.op == Opcode::CpAsync || reads_clock(in);
}
bool is_memory(const Instruction& in) {
  return in.op == Opcode::Ld || in.op == Opcode::St || in.op == Opcode::Atom || in.op == Opcode::Red;
}

// A load's result waits on memory: weigh it as a shared-memory load would, so that address
// arithmetic for later loads moves ahead of work that only consumes earlier ones.
constexpr int kLoadWeight = 24;

struct Edge {
  size_t to;
  int delay;  // cycles the successor must wait after the predecessor issues
};

// Reorders code[begin, end) in place.
void schedule_block(std::vector<Instruction>& code, const std::vector<InstructionTiming>& timing, size_t begin,
                    size_t end) {
  const size_t n = end - begin;
  if (n < 3) return;
  std::vector<std::vector<Edge>> succ(n);
  std::vector<int> preds(n, 0);
  const auto edge = [&](size_t from, size_t to, int delay) {
    succ[from].push_back({to, delay});
    ++preds[to];
  };
  std::unordered_map<uint32_t, size_t> writer;                // register -> last instruction writing it
  std::unordered_map<uint32_t, std::vector<size_t>> readers;  // ... and those reading it since
  long last_memory = -1, last_fence = -1;
  std::vector<size_t> since_fence;
  for (size_t i = 0; i < n; ++i) {
    const Instruction& in = code[begin + i];
    const InstructionTiming& t = timing[begin + i];
    const bool last = i + 1 == n && t.is_control;  // the block's branch (or exit) stays last
    if (is_fence(in) || last) {
      for (size_t j : since_fence) edge(j, i, 1);
      since_fence.clear();
      last_fence = static_cast<long>(i);
    } else if (last_fence >= 0) {
      edge(static_cast<size_t>(last_fence), i, 1);
    }
    for (uint32_t r : t.reads) {
      if (r == kernel::kNoReg) continue;
      if (auto w = writer.find(r); w != writer.end()) {
        const InstructionTiming& wt = timing[begin + w->second];
        edge(w->second, i, wt.is_memory ? kLoadWeight : wt.latency);
      }
    }
    for (uint32_t r : t.writes) {
      if (r == kernel::kNoReg) continue;
      if (auto w = writer.find(r); w != writer.end()) edge(w->second, i, 1);
      for (size_t j : readers[r])
        if (j != i) edge(j, i, 0);
    }
    if (is_memory(in)) {
      if (last_memory >= 0) edge(static_cast<size_t>(last_memory), i, 1);
      last_memory = static_cast<long>(i);
    }
    for (uint32_t r : t.reads)
      if (r != kernel::kNoReg) readers[r].push_back(i);
    for (uint32_t r : t.writes)
      if (r != kernel::kNoReg) {
        writer[r] = i;
        readers[r].clear();
      }
    since_fence.push_back(i);
  }
  // Height: the longest latency-weighted path from an instruction to the block's end.
  std::vector<int> height(n, 0);
  for (size_t i = n; i-- > 0;)
    for (const Edge& e : succ[i]) height[i] = std::max(height[i], e.delay + height[e.to]);

  std::vector<long> ready_at(n, 0);
  std::array<long, kUnitCount> unit_free{};  // ptxas knows each pipe's throughput too
  const auto unit_ready = [&](size_t i) {
    const InstructionTiming& t = timing[begin + i];
    return t.occupancy == 0 ? 0L : unit_free[static_cast<size_t>(t.unit)];
  };
  std::vector<bool> done(n, false);
  std::vector<size_t> order;
  order.reserve(n);
  long cycle = 0;
  while (order.size() < n) {
    size_t best = n;
    long earliest = -1;
    for (size_t i = 0; i < n; ++i) {
      if (done[i] || preds[i] != 0) continue;
      const long at = std::max(ready_at[i], unit_ready(i));
      if (earliest < 0 || at < earliest) earliest = at;
      if (at > cycle) continue;
      if (best == n || height[i] > height[best]) best = i;  // ties: the earlier in PTX
    }
    if (best == n) {  // nothing ready this cycle: wait for the first
      cycle = earliest;
      continue;
    }
    done[best] = true;
    order.push_back(best);
    const InstructionTiming& bt = timing[begin + best];
    if (bt.occupancy != 0)
      unit_free[static_cast<size_t>(bt.unit)] = cycle + static_cast<long>((bt.occupancy + kUnitTicks - 1) / kUnitTicks);
    for (const Edge& e : succ[best]) {
      --preds[e.to];
      ready_at[e.to] = std::max(ready_at[e.to], cycle + e.delay);
    }
    ++cycle;
  }
  std::vector<Instruction> block(code.begin() + static_cast<long>(begin), code.begin() + static_cast<long>(end));
  for (size_t k = 0; k < n; ++k) code[begin + k] = block[order[k]];
}

}  // namespace

kernel::Program schedule_like_ptxas(const kernel::Program& program, const std::vector<InstructionTiming>& timing) {
  kernel::Program out = program;
  // The CFG's blocks start at every branch target and reconvergence point and end at
  // every branch: reordering inside them moves no PC anything refers to.
  for (const kernel::BasicBlock& b : kernel::build_cfg(program.code).blocks)
    schedule_block(out.code, timing, static_cast<size_t>(b.first), static_cast<size_t>(b.last) + 1);
  return out;
}

}  // namespace gpusim::core
