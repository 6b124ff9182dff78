// CRC-32 (IEEE 802.3, reflected, as zlib and Python's zlib.crc32 compute it): a cheap
// whole-buffer fingerprint that the GPU harness and gpusim can both produce. zlib's.
#pragma once

#include <zlib.h>

#include <cstddef>
#include <cstdint>

namespace gpusim::util {

inline uint32_t crc32(const uint8_t* data, size_t size) {
  return static_cast<uint32_t>(crc32_z(0, data, size));
}

}  // namespace gpusim::util
