#include "cli/range.hpp"

#include <gtest/gtest.h>

#include "util/yaml_reader.hpp"

namespace gpusim::cli {
namespace {

TEST(Range, SingleRangeAndList) {
  EXPECT_EQ(parse_value_list("threads", "256").values, (std::vector<int64_t>{256}));
  EXPECT_FALSE(parse_value_list("threads", "256").is_range);
  const ValueList r = parse_value_list("threads", "32:128:32");
  EXPECT_EQ(r.values, (std::vector<int64_t>{32, 64, 96, 128}));
  EXPECT_TRUE(r.is_range);
  EXPECT_EQ(parse_value_list("regs", "1:3").values, (std::vector<int64_t>{1, 2, 3}));
  EXPECT_EQ(parse_value_list("smem", "0,1024,4096").values, (std::vector<int64_t>{0, 1024, 4096}));
}

TEST(Range, BadInputNamesTheOption) {
  EXPECT_THROW(parse_value_list("threads", "abc"), util::InputError);
  EXPECT_THROW(parse_value_list("threads", "-32"), util::InputError);
  EXPECT_THROW(parse_value_list("threads", "64:32"), util::InputError);
  EXPECT_THROW(parse_value_list("threads", "32:64:0"), util::InputError);
  EXPECT_THROW(parse_value_list("threads", "1:2:3:4"), util::InputError);
  EXPECT_THROW(parse_value_list("threads", "1,,2"), util::InputError);
  EXPECT_THROW(parse_value_list("threads", "0:100000000000"), util::InputError);
  try {
    parse_value_list("regs", "12x");
  } catch (const util::InputError& e) {
    EXPECT_STREQ(e.what(), "--regs '12x': '12x' is not a whole number");
  }
}

}  // namespace
}  // namespace gpusim::cli
