// Setup and checks on several threads (--threads) give what one thread gives.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "reference/references.hpp"
#include "util/yaml_reader.hpp"
#include "workload/buffer_data.hpp"

namespace gpusim::reference {
namespace {

using workload::Buffer;
using workload::ElementType;
using workload::InitSpec;

Buffer random_buffer(ElementType type, int64_t count, uint64_t seed) {
  Buffer b;
  b.name = "x";
  b.type = type;
  b.count = count;
  b.init.kind = InitSpec::Kind::Random;
  b.init.seed = seed;
  return b;
}

// The floats' bytes, as a buffer holds them.
std::vector<uint8_t> bytes_of(const std::vector<float>& values) {
  std::vector<uint8_t> out(values.size() * 4);
  std::memcpy(out.data(), values.data(), out.size());
  return out;
}

TEST(BufferThreads, RandomFillIsSplitmix64InElementOrderOnAnyNumberOfThreads) {
  // 300,000 floats: five parts of at least 65,536 elements on 5 threads.
  const Buffer b = random_buffer(ElementType::F32, 300000, 7);
  const util::Bytes one = workload::initial_bytes(b, 1), five = workload::initial_bytes(b, 5);
  EXPECT_EQ(one, five);
  // The generator, written out: state += gamma, then the mix (Steele, Lea and Flood 2014).
  uint64_t state = 7;
  for (size_t i = 0; i < 300000; i += 99999) {
    uint64_t z = 0;
    for (size_t k = (i == 0 ? 0 : i - 99999 + 1); k <= i; ++k) {
      z = (state += 0x9E3779B97F4A7C15ull);
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
      z ^= z >> 31;
    }
    const float want = static_cast<float>(static_cast<double>(z >> 11) * 0x1.0p-53 * 2.0 - 1.0);
    float got;
    std::memcpy(&got, one.data() + i * 4, 4);
    EXPECT_EQ(got, want) << "element " << i;
  }
}

TEST(BufferThreads, IotaAndIntegersAlike) {
  Buffer iota = random_buffer(ElementType::I32, 200000, 0);
  iota.init.kind = InitSpec::Kind::Iota;
  const util::Bytes bytes = workload::initial_bytes(iota, 3);
  int32_t last;
  std::memcpy(&last, bytes.data() + 199999 * 4, 4);
  EXPECT_EQ(last, 199999);
  EXPECT_EQ(workload::initial_bytes(random_buffer(ElementType::I16, 250000, 3), 1),
            workload::initial_bytes(random_buffer(ElementType::I16, 250000, 3), 4));
}

TEST(CompareThreads, SameCountsFirstMismatchesAndWorstErrorOnAnyNumberOfThreads) {
  // 400,000 floats, wrong at 10 places spread over what would be four parts: the report
  // names the first four in element order whatever part found them.
  std::vector<float> want(400000), got(400000);
  for (size_t i = 0; i < want.size(); ++i) want[i] = got[i] = static_cast<float>(i % 1000);
  const size_t wrong[] = {5, 120000, 120001, 130000, 250000, 260000, 300000, 350000, 399998, 399999};
  for (size_t i : wrong) got[i] += 1.0f;
  got[7] += 0.5e-3f * want[7];  // within tolerance; its error is the worst that passes
  std::vector<uint8_t> g = bytes_of(got), w = bytes_of(want);
  const CheckResult one = compare_buffers(g, w, ElementType::F32, 1e-3, 1);
  const CheckResult four = compare_buffers(g, w, ElementType::F32, 1e-3, 4);
  EXPECT_EQ(one.mismatches, 10);
  EXPECT_EQ(four.mismatches, 10);
  EXPECT_EQ(one.detail, four.detail);
  EXPECT_EQ(one.detail.rfind("10 of 400000 elements differ; first: element 5: got", 0), 0u) << one.detail;
  EXPECT_NE(one.detail.find("element 130000"), std::string::npos);
  EXPECT_EQ(one.detail.find("element 250000"), std::string::npos);  // the fifth is not shown
  // Passing: the max relative error is reported alike.
  got = want;
  got[390000] = want[390000] * (1 + 0.25e-3f);
  g = bytes_of(got);
  EXPECT_EQ(compare_buffers(g, w, ElementType::F32, 1e-3, 1).detail, compare_buffers(g, w, ElementType::F32, 1e-3, 3).detail);
  EXPECT_TRUE(compare_buffers(g, w, ElementType::F32, 1e-3, 3).passed);
}

// Tolerance 0 compares floats bit for bit: -0.0 is not 0.0, a NaN of the same bits
// matches itself, and a value 1 ulp off differs. 300,000 floats, 3 of them wrong.
TEST(CompareThreads, BitForBitFloatsCountEveryDifferingBitPattern) {
  std::vector<float> want(300000), got;
  for (size_t i = 0; i < want.size(); ++i) want[i] = static_cast<float>(i) * 0.5f;
  want[1000] = std::numeric_limits<float>::quiet_NaN();
  got = want;
  got[0] = -0.0f;                                          // want[0] is +0.0
  got[150000] = std::nextafter(want[150000], 1e9f);        // 75000 -> the next float up
  got[299999] = want[299999] * 2;                          // 149999.5 -> 299999
  std::vector<uint8_t> g = bytes_of(got), w = bytes_of(want);
  for (int threads : {1, 4}) {
    const CheckResult r = compare_buffers(g, w, ElementType::F32, 0, threads);
    EXPECT_FALSE(r.passed);
    EXPECT_EQ(r.mismatches, 3) << threads;
    EXPECT_EQ(r.detail.rfind("3 of 300000 elements differ; first: element 0: got -0.000000, expected 0.000000; "
                             "element 150000: got 75000.007812, expected 75000.000000; element 299999: got "
                             "299999.000000, expected 149999.500000", 0),
              0u)
        << r.detail;
  }
  const CheckResult same = compare_buffers(w, w, ElementType::F32, 0, 4);
  EXPECT_TRUE(same.passed);
  EXPECT_EQ(same.detail, "300000 elements match");  // no relative error shown: none is allowed
}

TEST(ReferenceThreads, MatmulGivesTheSameBytesOnSeveralThreads) {
  workload::Workload w;
  w.params["n"] = 96;
  Buffers in;
  in["a"] = workload::initial_bytes(random_buffer(ElementType::F32, 96 * 96, 1));
  in["b"] = workload::initial_bytes(random_buffer(ElementType::F32, 96 * 96, 2));
  const ReferenceFn* matmul = find_reference("matmul");
  ASSERT_NE(matmul, nullptr);
  const util::Bytes one = (*matmul)(w, in, 1), three = (*matmul)(w, in, 3);
  EXPECT_EQ(one, three);
  // c[5][7] by hand: the sum over k of a[5][k] * b[k][7], in double.
  std::vector<float> a(96 * 96), b(96 * 96);
  std::memcpy(a.data(), in["a"].data(), in["a"].size());
  std::memcpy(b.data(), in["b"].data(), in["b"].size());
  double sum = 0;
  for (int k = 0; k < 96; ++k) sum += static_cast<double>(a[5 * 96 + k]) * b[k * 96 + 7];
  float c57;
  std::memcpy(&c57, one.data() + (5 * 96 + 7) * 4, 4);
  EXPECT_EQ(c57, static_cast<float>(sum));
}

float float_at(const util::Bytes& bytes, int64_t i) {
  float v;
  std::memcpy(&v, bytes.data() + i * 4, 4);
  return v;
}

TEST(ReferenceThreads, ElementwiseReferencesGiveTheSameBytesOnSeveralThreads) {
  // 300,000 elements: five parts of at least 65,536 on 5 threads. Each element checked by
  // hand at the parts' seams and at the grid's edges.
  constexpr int64_t kN = 300000;
  Buffers in;
  in["a"] = workload::initial_bytes(random_buffer(ElementType::F32, kN, 1));
  in["b"] = workload::initial_bytes(random_buffer(ElementType::F32, kN, 2));
  in["in"] = in["a"];
  workload::Workload w;
  w.params["n"] = kN;
  const util::Bytes sum = (*find_reference("vecadd"))(w, in, 1);
  EXPECT_EQ((*find_reference("vecadd"))(w, in, 5), sum);
  for (int64_t i : {int64_t{0}, kN / 5 - 1, kN / 5, kN - 1})
    EXPECT_EQ(float_at(sum, i), float_at(in["a"], i) + float_at(in["b"], i)) << i;

  // A 500 x 590 grid (nx = 500): the border copied, the rest the five-point average, and the
  // 5,000 elements past the grid zero.
  w.params["nx"] = 500;
  w.params["ny"] = 590;
  const util::Bytes stencil = (*find_reference("stencil5"))(w, in, 1);
  EXPECT_EQ((*find_reference("stencil5"))(w, in, 5), stencil);
  const auto x = [&](int64_t k) { return float_at(in["in"], k); };
  EXPECT_EQ(float_at(stencil, 500 * 590), 0.0f);
  EXPECT_EQ(float_at(stencil, kN - 1), 0.0f);
  for (int64_t k : {int64_t{0}, int64_t{499}, int64_t{500}, int64_t{501}, kN / 5, int64_t{500 * 589 - 2}, int64_t{500 * 590 - 1}}) {
    const int64_t i = k % 500, j = k / 500;
    const float want = i == 0 || j == 0 || i == 499 || j == 589
                           ? x(k)
                           : 0.2f * ((((x(k) + x(k - 1)) + x(k + 1)) + x(k - 500)) + x(k + 500));
    EXPECT_EQ(float_at(stencil, k), want) << k;
  }

  // n = 500: out[c][r] = in[r][c]; the 50,000 elements past n x n stay zero.
  w.params["n"] = 500;
  const util::Bytes t = (*find_reference("transpose"))(w, in, 1);
  EXPECT_EQ((*find_reference("transpose"))(w, in, 5), t);
  EXPECT_EQ(float_at(t, 7 * 500 + 3), x(3 * 500 + 7));
  EXPECT_EQ(float_at(t, 499 * 500 + 0), x(0 * 500 + 499));
  EXPECT_EQ(float_at(t, 500 * 500), 0.0f);
  EXPECT_EQ(t.size(), in["in"].size());

  // Reading past a buffer is refused, naming it.
  w.params["n"] = kN + 1;
  try {
    (*find_reference("vecadd"))(w, in, 2);
    ADD_FAILURE() << "no error";
  } catch (const util::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("buffer 'a'"), std::string::npos) << e.what();
  }
}

// The error a reference gives, or "" when it gives none.
std::string reference_error(const std::string& name, const workload::Workload& w, const Buffers& in) {
  try {
    (*find_reference(name))(w, in, 1);
  } catch (const util::InputError& e) {
    return e.what();
  }
  return "";
}

TEST(References, HistogramCountsEachByteAndEveryReferenceRefusesToReadPastItsBuffers) {
  // 1,000 bytes i % 256: bins 0 to 231 hold 4, the rest 3.
  Buffers in;
  in["data"].resize(1000);
  for (size_t i = 0; i < 1000; ++i) in["data"][i] = static_cast<uint8_t>(i % 256);
  workload::Workload w;
  w.source_file = "h.yaml";
  w.params["n"] = 1000;
  const util::Bytes bins = (*find_reference("histogram256"))(w, in, 1);
  ASSERT_EQ(bins.size(), 256u * 4);
  for (uint32_t b = 0; b < 256; ++b) {
    uint32_t count;
    std::memcpy(&count, bins.data() + b * 4, 4);
    EXPECT_EQ(count, b < 232 ? 4u : 3u) << b;
  }
  // Parameters that would read past a buffer, or divide by zero, are the workload's error.
  w.params["n"] = 1001;
  EXPECT_EQ(reference_error("histogram256", w, in), "h.yaml: the reference reads 1001 elements of buffer 'data', which has 1000");
  in["in"] = in["x"] = in["a"] = in["b"] = util::Bytes(400);  // 100 words
  const auto error_with = [&](const std::string& name, const workload::Params& params) {
    w.params = params;
    return reference_error(name, w, in);
  };
  const std::string past = "h.yaml: the reference reads ";
  EXPECT_EQ(error_with("block_sums", {{"n", 101}, {"block", 10}}), past + "101 elements of buffer 'in', which has 100");
  EXPECT_EQ(error_with("block_sums", {{"n", 100}, {"block", 0}}), "h.yaml: the reference needs parameter 'block' above 0, not 0");
  EXPECT_EQ(error_with("block_sums", {{"n", 100}, {"block", 10}}), "");
  EXPECT_EQ(error_with("matmul", {{"n", 11}}), past + "121 elements of buffer 'a', which has 100");
  EXPECT_EQ(error_with("matmul", {{"n", 10}}), "");
  EXPECT_EQ(error_with("warp_reduce", {{"n", 128}}), past + "128 elements of buffer 'in', which has 100");
  EXPECT_EQ(error_with("branch_by_warp", {{"n", -1}}), past + "-1 elements of buffer 'in', which has 100");
  EXPECT_EQ(error_with("math_funcs", {{"n", 200}}), past + "200 elements of buffer 'x', which has 100");
  EXPECT_EQ(error_with("strided_read", {{"n", 0}, {"stride", 3}, {"threads", 5}}),
            "h.yaml: the reference needs parameter 'n' above 0, not 0");
  EXPECT_EQ(error_with("strided_read", {{"n", 100}, {"stride", 3}, {"threads", 5}}), "");
  EXPECT_EQ(error_with("pointer_chase", {{"n", 0}, {"step", 1}, {"hops", 5}}),
            "h.yaml: the reference needs parameter 'n' above 0, not 0");
  EXPECT_EQ(error_with("block_scan", {{"block", -2}}), "h.yaml: the reference needs parameter 'block' above 0, not -2");
}

}  // namespace
}  // namespace gpusim::reference
