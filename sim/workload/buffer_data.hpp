// A workload buffer's initial contents, as the bytes the host would copy.
#pragma once

#include <cstdint>
#include <vector>

#include "util/bytes.hpp"
#include "workload/workload.hpp"

namespace gpusim::workload {

// zero; iota (element i holds i); random: floats uniform in [-1, 1), signed integers in
// [-1000, 1000), unsigned integers in [0, 1000), u8 in [0, 256), from a fixed generator
// (splitmix64) so every machine gets the same data; constant; or a file: raw elements, or a
// one-dimensional .npy (by its name) of the buffer's type and length.
// Throws util::InputError when a file's size does not match. The same bytes on any number of
// `threads` (each element is its own draw).
util::Bytes initial_bytes(const Buffer& b, int threads = 1);

// A struct argument's bytes: each field aligned to its own size, in order.
std::vector<uint8_t> struct_bytes(const StructArg& fields);

}  // namespace gpusim::workload
