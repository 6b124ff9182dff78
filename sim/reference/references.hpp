// Reference implementations that ship with the bundled workloads: plain C++ that
// computes what a workload's `check` buffer must hold, from the initial buffers.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "reference/output_digest.hpp"
#include "util/bytes.hpp"
#include "workload/workload.hpp"

namespace gpusim::reference {

using Buffers = std::map<std::string, util::Bytes>;
// `threads`: how many it may use (--threads); the result is the same on any number.
using ReferenceFn = std::function<util::Bytes(const workload::Workload&, const Buffers& initial, int threads)>;

// nullptr when no reference has that name.
const ReferenceFn* find_reference(const std::string& name);
std::vector<std::string> reference_names();

struct CheckResult {
  bool passed = false;
  int64_t mismatches = 0;
  std::string detail;  // the first mismatch, or a summary when passed
  OutputDigest output;  // of the buffer checked (what the run produced)
};

// Compares element by element: integers exactly, floats within `tolerance` relative
// error (|got - want| <= tolerance * max(1, |want|)); 0 means bit for bit. The same result on
// any number of `threads`.
CheckResult compare_buffers(std::span<const uint8_t> got, std::span<const uint8_t> want,
                            workload::ElementType type, double tolerance, int threads = 1);

}  // namespace gpusim::reference
