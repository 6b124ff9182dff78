#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "reference/output_digest.hpp"
#include "util/crc32.hpp"

namespace gpusim::reference {
namespace {

TEST(Crc32, StandardCheckValues) {
  // The CRC-32 catalogue's check value, and zlib.crc32(b"") / zlib.crc32(b"a").
  const std::string digits = "123456789";
  EXPECT_EQ(util::crc32(reinterpret_cast<const uint8_t*>(digits.data()), digits.size()), 0xCBF43926u);
  EXPECT_EQ(util::crc32(nullptr, 0), 0u);
  const uint8_t a = 'a';
  EXPECT_EQ(util::crc32(&a, 1), 0xE8B7BE43u);
}

std::vector<uint8_t> bytes_of(const std::vector<int32_t>& v) {
  std::vector<uint8_t> b(v.size() * 4);
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

TEST(OutputDigest, EvenlySpacedSamplesIncludingBothEnds) {
  std::vector<int32_t> v(100);
  for (int i = 0; i < 100; ++i) v[i] = 1000 + i;
  const OutputDigest d = digest_output(bytes_of(v), workload::ElementType::I32);
  ASSERT_EQ(d.sample_indices.size(), 16u);
  EXPECT_EQ(d.sample_indices[1], 6);    // 1 * 99 / 15
  EXPECT_EQ(d.sample_indices[2], 13);   // 198 / 15
  EXPECT_EQ(d.sample_indices[15], 99);
  for (size_t k = 0; k < d.samples.size(); ++k) EXPECT_EQ(d.samples[k], 1000.0 + d.sample_indices[k]);
  const auto bytes = bytes_of(v);
  EXPECT_EQ(d.crc32, util::crc32(bytes.data(), bytes.size()));
}

TEST(OutputDigest, ShortBuffersSampleEachElementOnce) {
  const OutputDigest d = digest_output(bytes_of({7, -8, 9}), workload::ElementType::I32);
  EXPECT_EQ(d.sample_indices, (std::vector<int64_t>{0, 1, 2}));
  EXPECT_EQ(d.samples, (std::vector<double>{7, -8, 9}));
  const float f[2] = {0.1f, -2.5f};
  std::vector<uint8_t> fb(8);
  std::memcpy(fb.data(), f, 8);
  const OutputDigest df = digest_output(fb, workload::ElementType::F32);
  EXPECT_EQ(df.samples, (std::vector<double>{static_cast<double>(0.1f), -2.5}));
  EXPECT_TRUE(digest_output({}, workload::ElementType::F32).samples.empty());
}

}  // namespace
}  // namespace gpusim::reference
