// The value syntax of study factors and of `gpusim run --set`.
#include "study/value_spec.hpp"

#include <gtest/gtest.h>

#include "util/yaml_reader.hpp"

namespace gpusim::study {
namespace {

using V = std::vector<std::string>;

TEST(ValueSpec, ListsAndSingleValues) {
  EXPECT_EQ(expand_values("x", "lrr,gto, two_level"), (V{"lrr", "gto", "two_level"}));
  EXPECT_EQ(expand_values("x", "500"), (V{"500"}));
  EXPECT_EQ(expand_values("x", "gto"), (V{"gto"}));
  // A YAML list or mapping is one value of a list parameter, never split.
  EXPECT_EQ(expand_values("x", "[1, 2, 3]"), (V{"[1, 2, 3]"}));
}

TEST(ValueSpec, LinearRangesIncludeBothEnds) {
  EXPECT_EQ(expand_values("x", "300:800:100"), (V{"300", "400", "500", "600", "700", "800"}));
  EXPECT_EQ(expand_values("x", "1:4"), (V{"1", "2", "3", "4"}));
  // STOP not on the grid: the last value below it.
  EXPECT_EQ(expand_values("x", "0:10:4"), (V{"0", "4", "8"}));
  // Fractional steps land exactly on 0.3, not 0.30000000000000004.
  EXPECT_EQ(expand_values("x", "0.1:0.5:0.1"), (V{"0.1", "0.2", "0.3", "0.4", "0.5"}));
}

TEST(ValueSpec, GeometricRanges) {
  EXPECT_EQ(expand_values("x", "1024:262144:*4"), (V{"1024", "4096", "16384", "65536", "262144"}));
  EXPECT_EQ(expand_values("x", "1:32:*2"), (V{"1", "2", "4", "8", "16", "32"}));
  EXPECT_EQ(expand_values("x", "1:10:*3"), (V{"1", "3", "9"}));
}

TEST(ValueSpec, MalformedRangesNameTheFlag) {
  const auto message = [](const std::string& text) {
    try {
      expand_values("--set 'memory.dram.latency=" + text + "'", text, 1000);
    } catch (const util::InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("800:300").find("STOP is less than START"), std::string::npos);
  EXPECT_NE(message("300:800:0").find("STEP must be more than 0"), std::string::npos);
  EXPECT_NE(message("1:64:*1").find("FACTOR must be more than 1"), std::string::npos);
  EXPECT_NE(message("0:64:*2").find("must start above 0"), std::string::npos);
  EXPECT_NE(message("1:100000:1").find("more than 1000 values"), std::string::npos);
  EXPECT_NE(message("300:abc").find("is not a number"), std::string::npos);
  EXPECT_NE(message("1:2:3:4").find("START:STOP"), std::string::npos);
  EXPECT_NE(message("a,,b").find("empty value"), std::string::npos);
  EXPECT_EQ(message("1:2:3:4").rfind("--set 'memory.dram.latency=1:2:3:4'", 0), 0u);
}

TEST(ValueSpec, TellsSeveralValuesFromOne) {
  EXPECT_TRUE(is_multi_value("300:800:100"));
  EXPECT_TRUE(is_multi_value("lrr,gto"));
  EXPECT_TRUE(is_multi_value("1:32:*2"));
  EXPECT_FALSE(is_multi_value("500"));
  EXPECT_FALSE(is_multi_value("9.0"));
  EXPECT_FALSE(is_multi_value("[1, 2]"));
  EXPECT_FALSE(is_multi_value("gto"));
}

}  // namespace
}  // namespace gpusim::study
