// Reconvergence analysis on hand-built control-flow graphs; node n is the virtual exit.
#include "kernel/cfg.hpp"

#include <gtest/gtest.h>

namespace gpusim::kernel {
namespace {

TEST(PostDominators, If) {
  // 0 -> 1 -> 2, 0 -> 2; 2 leaves.
  EXPECT_EQ(immediate_post_dominators(3, {{0, 1}, {0, 2}, {1, 2}}, {2}), (std::vector<int>{2, 2, 3}));
}

TEST(PostDominators, IfElse) {
  // 0 -> {1, 2} -> 3; 3 leaves.
  EXPECT_EQ(immediate_post_dominators(4, {{0, 1}, {0, 2}, {1, 3}, {2, 3}}, {3}), (std::vector<int>{3, 3, 3, 4}));
}

TEST(PostDominators, LoopWithBreak) {
  // 0 -> 1 (header); 1 -> 2 (body) or 4 (done); 2 -> 3 (continue) or 4 (break); 3 -> 1; 4 leaves.
  const auto pd = immediate_post_dominators(5, {{0, 1}, {1, 2}, {1, 4}, {2, 3}, {2, 4}, {3, 1}}, {4});
  EXPECT_EQ(pd, (std::vector<int>{1, 4, 4, 1, 5}));
}

TEST(PostDominators, Nested) {
  // 0 -> {1, 5}; 1 -> {2, 3} -> 4 -> 5; 5 leaves.
  const auto pd = immediate_post_dominators(6, {{0, 1}, {0, 5}, {1, 2}, {1, 3}, {2, 4}, {3, 4}, {4, 5}}, {5});
  EXPECT_EQ(pd, (std::vector<int>{5, 4, 4, 4, 5, 6}));
}

TEST(PostDominators, EarlyExitAndEndlessLoop) {
  // 0 -> 1 (leaves early) or 2 -> 3 (leaves): the branch reconverges only at the exit.
  EXPECT_EQ(immediate_post_dominators(4, {{0, 1}, {0, 2}, {2, 3}}, {1, 3}), (std::vector<int>{4, 4, 3, 4}));
  // 1 <-> 2 never reaches the exit: no post-dominator but the exit itself.
  EXPECT_EQ(immediate_post_dominators(3, {{0, 1}, {1, 2}, {2, 1}}, {0})[1], 3);
}

}  // namespace
}  // namespace gpusim::kernel
