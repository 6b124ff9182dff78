#include "workload/expression.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace gpusim::workload {
namespace {

TEST(Expression, PrecedenceParenthesesAndParameters) {
  const Params p{{"n", 1000}, {"block", 256}};
  EXPECT_EQ(evaluate("(n + block - 1) / block", p), 4);
  EXPECT_EQ(evaluate("2 + 3 * 4", p), 14);
  EXPECT_EQ(evaluate("(2 + 3) * 4", p), 20);
  EXPECT_EQ(evaluate("n % 7", p), 6);
  EXPECT_EQ(evaluate("-n / 10", p), -100);
  EXPECT_EQ(evaluate("  42 ", p), 42);
}

TEST(Expression, ErrorsSayWhy) {
  const Params p{{"n", 4}};
  EXPECT_THROW(evaluate("n / 0", p), std::invalid_argument);
  EXPECT_THROW(evaluate("m + 1", p), std::invalid_argument);
  EXPECT_THROW(evaluate("(n + 1", p), std::invalid_argument);
  EXPECT_THROW(evaluate("n +", p), std::invalid_argument);
  EXPECT_THROW(evaluate("n $ 2", p), std::invalid_argument);
  EXPECT_THROW(evaluate("9223372036854775807 + 1", p), std::invalid_argument);
  try {
    evaluate("m * 2", p);
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "unknown parameter 'm' in 'm * 2'");
  }
}

}  // namespace
}  // namespace gpusim::workload
