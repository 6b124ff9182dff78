#include "stats/json_writer.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace gpusim::stats {
namespace {

TEST(JsonWriter, NestsEscapesAndSeparates) {
  std::ostringstream out;
  {
    JsonWriter j(out);
    j.begin_object().field("name", "a \"quoted\"\nline").field("n", 3).field("x", 0.25).field("ok", true);
    j.key("list").begin_array().value(1).value(2).end_array();
    j.key("empty").begin_object().end_object();
    j.key("none").null();
    j.end_object();
  }
  EXPECT_EQ(out.str(),
            "{\n  \"name\": \"a \\\"quoted\\\"\\nline\",\n  \"n\": 3,\n  \"x\": 0.25,\n  \"ok\": true,\n"
            "  \"list\": [\n    1,\n    2\n  ],\n  \"empty\": {},\n  \"none\": null\n}\n");
}

}  // namespace
}  // namespace gpusim::stats
