// CRC-32 (IEEE 802.3, reflected, as zlib and Python's zlib.crc32 compute it): a cheap
// whole-buffer fingerprint that the GPU harness and gpusim can both produce.
#pragma once

#include <cstddef>
#include <cstdint>

namespace gpusim::util {

uint32_t crc32(const uint8_t* data, size_t size, uint32_t crc = 0);

}  // namespace gpusim::util
