#include "reference/output_digest.hpp"

#include <cstring>

#include "exec/small_float.hpp"
#include "util/crc32.hpp"

namespace gpusim::reference {
namespace {

template <typename T>
double element(std::span<const uint8_t> bytes, int64_t i) {
  T v;
  std::memcpy(&v, bytes.data() + i * sizeof(T), sizeof(T));
  return static_cast<double>(v);
}

double element_as_double(std::span<const uint8_t> bytes, workload::ElementType type, int64_t i) {
  using workload::ElementType;
  switch (type) {
    case ElementType::U8: return element<uint8_t>(bytes, i);
    case ElementType::I32: return element<int32_t>(bytes, i);
    case ElementType::U32: return element<uint32_t>(bytes, i);
    case ElementType::I64: return element<int64_t>(bytes, i);
    case ElementType::U64: return element<uint64_t>(bytes, i);
    case ElementType::F32: return element<float>(bytes, i);
    case ElementType::F64: return element<double>(bytes, i);
    case ElementType::I8: return element<int8_t>(bytes, i);
    case ElementType::I16: return element<int16_t>(bytes, i);
    case ElementType::U16: return element<uint16_t>(bytes, i);
    case ElementType::F16: return exec::decode_small_float(static_cast<uint32_t>(element<uint16_t>(bytes, i)), exec::kHalf);
    case ElementType::BF16: return exec::decode_small_float(static_cast<uint32_t>(element<uint16_t>(bytes, i)), exec::kBfloat16);
  }
  return 0;
}

}  // namespace

OutputDigest digest_output(std::span<const uint8_t> bytes, workload::ElementType type) {
  OutputDigest d;
  d.crc32 = util::crc32(bytes.data(), bytes.size());
  const int64_t count = static_cast<int64_t>(bytes.size()) / workload::element_size(type);
  for (int k = 0; k < kDigestSamples && count > 0; ++k) {
    const int64_t i = k * (count - 1) / (kDigestSamples - 1);
    if (!d.sample_indices.empty() && d.sample_indices.back() == i) continue;
    d.sample_indices.push_back(i);
    d.samples.push_back(element_as_double(bytes, type, i));
  }
  return d;
}

}  // namespace gpusim::reference
