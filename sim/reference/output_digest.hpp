// A short summary of a checked output buffer - its CRC-32 and a few evenly spaced
// values - so that an output produced elsewhere (validate/run_gpu.py on a real GPU)
// can be compared with gpusim's without shipping the buffer: equal CRCs mean equal
// bytes; otherwise the samples are compared within the workload's tolerance.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "workload/workload.hpp"

namespace gpusim::reference {

inline constexpr int kDigestSamples = 16;

struct OutputDigest {
  uint32_t crc32 = 0;
  std::vector<int64_t> sample_indices;  // k * (count - 1) / (kDigestSamples - 1), distinct
  std::vector<double> samples;          // the elements at those indices
};

OutputDigest digest_output(std::span<const uint8_t> bytes, workload::ElementType type);

}  // namespace gpusim::reference
