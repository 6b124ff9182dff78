// Writes a buffer as a NumPy .npy file (format 1.0: magic, a header dict, raw little-endian
// data), so `numpy.load` reads it with its element type and length. bf16 has no NumPy type:
// it is written as its raw 16-bit patterns ('<u2').
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "util/bytes.hpp"
#include "workload/workload.hpp"

namespace gpusim::workload {

// Throws util::InputError naming `path` when it cannot be written.
void write_npy(const std::string& path, ElementType type, std::span<const uint8_t> bytes);

// Reads a one-dimensional .npy of `count` elements of `type` (its dtype must be the buffer's:
// the error says which it is and how to cast); throws util::InputError naming `what`.
util::Bytes read_npy(const std::string& path, ElementType type, int64_t count, const std::string& what);

// Whether `path` names a .npy file (by its ending): buffers are read and written as NumPy arrays there.
bool is_npy_path(const std::string& path);

// A buffer's bytes to `path`: .npy when the name ends so, raw bytes otherwise.
void write_buffer_file(const std::string& path, ElementType type, std::span<const uint8_t> bytes);

}  // namespace gpusim::workload
