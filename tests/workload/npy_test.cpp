// The .npy writer against the format's definition (NumPy's format 1.0): magic, version,
// header length, the dict padded with spaces and a newline to a multiple of 64 bytes.
#include "workload/npy.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "temp_file.hpp"
#include "util/yaml_reader.hpp"
#include "workload/buffer_data.hpp"

namespace gpusim::workload {
namespace {

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(Npy, HeaderIsPaddedToSixtyFourBytes) {
  test::TempFile f("a.npy", "");
  const std::vector<uint8_t> data = {0, 0, 128, 63, 0, 0, 0, 64, 0, 0, 64, 64};  // 1.0f, 2.0f, 3.0f
  write_npy(f.path(), ElementType::F32, data);
  const std::string file = read(f.path());
  const std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }";  // 59 characters
  // 10 bytes before the dict, the dict, a newline: 70, padded to 128, so the dict field is 118 long.
  ASSERT_EQ(file.size(), 128u + 12u);
  EXPECT_EQ(file.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
  EXPECT_EQ(static_cast<uint8_t>(file[8]), 118);
  EXPECT_EQ(file[9], 0);
  EXPECT_EQ(file.substr(10, dict.size()), dict);
  EXPECT_EQ(file[127], '\n');
  EXPECT_EQ(file.substr(128), std::string(data.begin(), data.end()));
}

TEST(Npy, HalfIsF2AndBfloat16ItsRawBits) {
  test::TempFile f("h.npy", "");
  write_npy(f.path(), ElementType::F16, std::vector<uint8_t>{0, 60});
  EXPECT_NE(read(f.path()).find("'descr': '<f2'"), std::string::npos);
  write_npy(f.path(), ElementType::BF16, std::vector<uint8_t>{128, 63});
  EXPECT_NE(read(f.path()).find("'descr': '<u2'"), std::string::npos);
}

TEST(Npy, ABufferStartsFromTheNpyFileItsInitNames) {
  test::TempFile f("ring.npy", "");
  const util::Bytes data = {7, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0};  // i32 7, 0, 3
  write_npy(f.path(), ElementType::I32, data);
  Buffer b;
  b.name = "ring";
  b.type = ElementType::I32;
  b.count = 3;
  b.init.kind = InitSpec::Kind::File;
  b.init.file = f.path();
  EXPECT_EQ(initial_bytes(b), data);  // the data after the header, not the file's 140 bytes
  b.count = 4;
  EXPECT_THROW(initial_bytes(b), util::InputError);  // its shape is (3,)
  b.count = 3;
  b.type = ElementType::F32;
  EXPECT_THROW(initial_bytes(b), util::InputError);  // its dtype is <i4
}

}  // namespace
}  // namespace gpusim::workload
