#include "kernel/cfg.hpp"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/dominator_tree.hpp>
#include <boost/property_map/property_map.hpp>

namespace gpusim::kernel {
namespace {

// A call ends a block too (nothing moves across it) but falls through to the next.
bool ends_block(const Instruction& in) {
  return in.op == Opcode::Bra || in.op == Opcode::Ret || in.op == Opcode::Exit || in.op == Opcode::Call;
}
bool leaves(const Instruction& in) { return in.op == Opcode::Ret || in.op == Opcode::Exit; }

}  // namespace

std::vector<int> immediate_post_dominators(int n, const std::vector<std::pair<int, int>>& edges,
                                           const std::vector<int>& exits) {
  using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;
  using Vertex = boost::graph_traits<Graph>::vertex_descriptor;
  // Reversed CFG: an edge u->v becomes v->u; the virtual exit n is the root.
  Graph reversed(n + 1);
  for (const auto& [from, to] : edges) boost::add_edge(to, from, reversed);
  for (int e : exits) boost::add_edge(n, e, reversed);

  std::vector<Vertex> idom(n + 1, boost::graph_traits<Graph>::null_vertex());
  auto index = boost::get(boost::vertex_index, reversed);
  auto idom_map = boost::make_iterator_property_map(idom.begin(), index);
  boost::lengauer_tarjan_dominator_tree(reversed, boost::vertex(n, reversed), idom_map);

  std::vector<int> out(n, n);
  for (int v = 0; v < n; ++v)
    if (idom[v] != boost::graph_traits<Graph>::null_vertex()) out[v] = static_cast<int>(idom[v]);
  return out;
}

ControlFlowGraph build_cfg(const std::vector<Instruction>& code) {
  ControlFlowGraph cfg;
  const int size = static_cast<int>(code.size());
  std::vector<bool> leader(size + 1, false);
  leader[0] = true;
  for (int pc = 0; pc < size; ++pc) {
    const Instruction& in = code[pc];
    if (in.op == Opcode::Bra) leader[static_cast<size_t>(in.src[0].imm)] = true;
    if (ends_block(in)) leader[pc + 1] = true;
  }
  cfg.block_of_pc.assign(size, 0);
  for (int pc = 0; pc < size; ++pc) {
    if (leader[pc]) cfg.blocks.push_back({pc, pc, {}});
    cfg.blocks.back().last = pc;
    cfg.block_of_pc[pc] = static_cast<int>(cfg.blocks.size()) - 1;
  }
  const int exit = cfg.exit_node();
  std::vector<std::pair<int, int>> edges;
  std::vector<int> exits;
  for (int b = 0; b < exit; ++b) {
    BasicBlock& block = cfg.blocks[b];
    const Instruction& tail = code[block.last];
    const bool guarded = tail.guard != kNoReg;
    const int next = block.last + 1 < size ? cfg.block_of_pc[block.last + 1] : exit;
    if (tail.op == Opcode::Bra)
      block.successors.push_back(tail.src[0].imm < size ? cfg.block_of_pc[tail.src[0].imm] : exit);
    if (leaves(tail)) block.successors.push_back(exit);
    if (!ends_block(tail) || guarded || tail.op == Opcode::Call) block.successors.push_back(next);
    for (int s : block.successors) {
      if (s == exit) exits.push_back(b);
      else edges.emplace_back(b, s);
    }
  }
  cfg.ipdom = immediate_post_dominators(exit, edges, exits);
  return cfg;
}

void assign_reconvergence_points(Program& program) {
  if (program.code.empty()) return;
  const ControlFlowGraph cfg = build_cfg(program.code);
  const int size = static_cast<int>(program.code.size());
  for (int pc = 0; pc < size; ++pc) {
    Instruction& in = program.code[pc];
    if (in.op != Opcode::Bra) continue;
    const int pd = cfg.ipdom[cfg.block_of_pc[pc]];
    in.reconverge_pc = pd == cfg.exit_node() ? size : cfg.blocks[pd].first;
  }
}

}  // namespace gpusim::kernel
