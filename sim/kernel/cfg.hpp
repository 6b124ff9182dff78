// Control-flow graph of a decoded kernel and its reconvergence points: the immediate
// post-dominator of each branch, computed with Boost.Graph as the dominator tree of
// the reversed CFG rooted at a virtual exit node.
#pragma once

#include <utility>
#include <vector>

#include "kernel/ir.hpp"

namespace gpusim::kernel {

struct BasicBlock {
  int first = 0;  // first and last instruction (inclusive)
  int last = 0;
  std::vector<int> successors;  // block indices; the virtual exit is blocks.size()
};

struct ControlFlowGraph {
  std::vector<BasicBlock> blocks;
  std::vector<int> block_of_pc;
  std::vector<int> ipdom;  // per block: immediate post-dominator block, or blocks.size() (exit)
  int exit_node() const { return static_cast<int>(blocks.size()); }
};

// Immediate post-dominators of nodes 0..n-1 given edges and the nodes that leave the
// graph (edges to the virtual exit node n). A node that cannot reach the exit gets n.
std::vector<int> immediate_post_dominators(int n, const std::vector<std::pair<int, int>>& edges,
                                           const std::vector<int>& exits);

ControlFlowGraph build_cfg(const std::vector<Instruction>& code);

// Sets every branch's reconverge_pc: the first instruction of its block's immediate
// post-dominator, or code.size() when that is the exit.
void assign_reconvergence_points(Program& program);

}  // namespace gpusim::kernel
