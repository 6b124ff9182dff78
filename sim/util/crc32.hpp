// CRC-32 (IEEE 802.3, reflected, as zlib and Python's zlib.crc32 compute it): a cheap
// whole-buffer fingerprint that the GPU harness and gpusim can both produce. Boost.CRC.
#pragma once

#include <boost/crc.hpp>
#include <cstddef>
#include <cstdint>

namespace gpusim::util {

inline uint32_t crc32(const uint8_t* data, size_t size) {
  boost::crc_32_type crc;
  crc.process_bytes(data, size);
  return crc.checksum();
}

}  // namespace gpusim::util
