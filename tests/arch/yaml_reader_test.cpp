#include "util/yaml_reader.hpp"

#include <gtest/gtest.h>

namespace gpusim::util {
namespace {

MapReader reader(const std::string& yaml) { return MapReader(YAML::Load(yaml), "t.yaml"); }

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "<no error>";
}

TEST(YamlReader, ReadsTypedValues) {
  MapReader r = reader("a: 12\nb: 0x10\nc: 2.5\nd: true\ne: text\nf: [1, 2, 3]\n");
  EXPECT_EQ(r.integer("a", 0, 100), 12);
  EXPECT_EQ(r.integer("b", 0, 100), 16);
  EXPECT_DOUBLE_EQ(r.number("c", 0, 10), 2.5);
  EXPECT_TRUE(r.boolean("d"));
  EXPECT_EQ(r.string("e"), "text");
  EXPECT_EQ(r.integer_list("f", 3, 0, 9), (std::vector<int64_t>{1, 2, 3}));
  EXPECT_NO_THROW(r.finish());
}

TEST(YamlReader, ErrorsNameFileLineAndKeyPath) {
  MapReader r = reader("outer:\n  x: 1\n  y: nope\n  z: -5\n");
  MapReader inner = r.map("outer");
  EXPECT_EQ(error_of([&] { inner.integer("y", 0, 9); }), "t.yaml:3: outer.y: expected an integer, got 'nope'");
  EXPECT_EQ(error_of([&] { inner.integer("z", 0, 9); }), "t.yaml:4: outer.z: -5 is out of range [0, 9]");
  EXPECT_EQ(error_of([&] { inner.integer("w", 0, 9); }), "t.yaml:2: outer: missing key 'w'");
  MapReader fresh = reader("outer:\n  x: 1\n  y: nope\n").map("outer");
  fresh.integer("x", 0, 9);
  EXPECT_EQ(error_of([&] { fresh.finish(); }), "t.yaml:3: outer.y: unknown key");
}

TEST(YamlReader, ListsAndNone) {
  MapReader r = reader("dims: [1, x, 3]\nshort: [1]\ncache: none\nother: 5\n");
  EXPECT_EQ(error_of([&] { r.integer_list("dims", 3, 0, 9); }), "t.yaml:1: dims: element 1: expected an integer, got 'x'");
  EXPECT_EQ(error_of([&] { r.integer_list("short", 3, 0, 9); }), "t.yaml:2: short: expected a list of 3 integers");
  EXPECT_FALSE(r.map_or_none("cache").has_value());
  EXPECT_EQ(error_of([&] { r.map_or_none("other"); }), "t.yaml:4: other: expected a mapping or 'none'");
}

TEST(YamlReader, OverflowAndGarbageAreNotNumbers) {
  MapReader r = reader("big: 99999999999999999999999\nf: 1.5x\n");
  EXPECT_NE(error_of([&] { r.integer("big", 0, 9); }).find("expected an integer"), std::string::npos);
  EXPECT_NE(error_of([&] { r.number("f", 0, 9); }).find("expected a number"), std::string::npos);
}

}  // namespace
}  // namespace gpusim::util
