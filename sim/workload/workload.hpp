// A workload: one real CUDA kernel, its buffers and the host steps (copies and
// launches) that run it, as read from workloads/*.yaml.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "workload/expression.hpp"

namespace gpusim::workload {

struct KernelSpec {
  std::string source;  // a .cu file (resolved against the workload file's folder), or empty
  std::string ptx;     // a .ptx file, or empty; exactly one of source and ptx is set
  std::string entry;
  std::optional<int> regs_per_thread;  // overrides the count ptxas reports
};

enum class ElementType { U8, I32, U32, I64, U64, F32, F64, I8, I16, U16, F16, BF16 };
inline constexpr ElementType kElementTypes[] = {ElementType::U8,  ElementType::I8,  ElementType::I16, ElementType::U16,
                                                ElementType::I32, ElementType::U32, ElementType::I64, ElementType::U64,
                                                ElementType::F16, ElementType::BF16, ElementType::F32, ElementType::F64};
inline constexpr bool is_float_element(ElementType t) {
  return t == ElementType::F16 || t == ElementType::BF16 || t == ElementType::F32 || t == ElementType::F64;
}
int element_size(ElementType t);
// "u8", "i8", "i16", "u16", "i32", "u32", "i64", "u64", "f16", "bf16", "f32", "f64": the names workload files use.
const char* element_type_name(ElementType t);

struct InitSpec {
  enum class Kind { Zero, Iota, Random, Constant, File } kind = Kind::Zero;
  uint64_t seed = 0;     // Random
  double constant = 0;   // Constant
  std::string file;      // File: raw little-endian elements, or .npy
};

struct Buffer {
  std::string name;
  ElementType type = ElementType::F32;
  int64_t count = 0;
  InitSpec init;
  bool pinned = false;  // host copy in page-locked memory (cudaMallocHost), else pageable (malloc)
};

struct CopyStep {
  bool to_device = true;
  std::string buffer;
  std::string symbol;  // to_device into a __device__/__constant__ variable (cudaMemcpyToSymbol), or empty
};

// A pointer to a buffer, optionally into its middle: `{buffer: a, offset: n / 2}` (elements).
struct BufferArg {
  std::string name;
  int64_t offset = 0;
};
// A struct passed by value: its fields in order, each aligned to its size (C's layout).
struct StructField {
  ElementType type = ElementType::I32;
  double value = 0;  // integers up to 2^53 exactly
};
using StructArg = std::vector<StructField>;

struct LaunchArg {
  std::variant<BufferArg, int64_t, double, StructArg> value;  // buffer, integer, float literal or struct
};

struct LaunchStep {
  std::string entry;  // the kernel this launch runs (the workload's kernel.entry unless the step names another)
  std::string source;  // the .cu it is in, when not the workload's kernel.source (resolved path), else empty
  std::array<int64_t, 3> grid{1, 1, 1};
  std::array<int64_t, 3> block{1, 1, 1};
  int64_t shared_bytes = 0;  // dynamic shared memory
  bool shared_opt_in = false;  // raised the per-block limit, as cudaFuncAttributeMaxDynamicSharedMemorySize does
  int preferred_carveout = -1;  // percent of the shared capacity, as cudaFuncAttributePreferredSharedMemoryCarveout; -1: none
  std::vector<LaunchArg> args;
};

// Writes a buffer's device contents at this point of the program to a file (.npy or raw).
struct DumpStep {
  std::string buffer;
  std::string file;
};

struct Step {
  std::variant<CopyStep, LaunchStep, DumpStep> action;
  int stream = 0;
  int line = 0;  // where the step is written, for messages
};

struct Check {
  std::string buffer;
  std::string reference;      // a named reference function, or empty
  std::string expected_file;  // a checked-in expected output, or empty
  std::string script;         // a Python reference: `python3 SCRIPT INPUTS_DIR OUT.npy`, or empty
  // A simple version of the kernel, run functionally on the inputs the program's first launch
  // sees; its output is the expected one.
  std::optional<LaunchStep> reference_kernel;
  int reference_line = 0;
  double tolerance = 0;       // max relative error for floats; 0 means bit for bit
};

struct Workload {
  std::string source_file;
  std::string name;
  std::string description;
  std::string size;  // the named size applied (--size), empty for the defaults
  Params params;
  KernelSpec kernel;
  std::vector<Buffer> buffers;
  std::vector<Step> steps;
  std::optional<Check> check;
  std::vector<DumpStep> final_dumps;  // --dump NAME=FILE: written after the last step

  const Buffer* find_buffer(const std::string& name) const;
  int64_t threads_per_block(const LaunchStep& l) const { return l.block[0] * l.block[1] * l.block[2]; }
};

// Reads a workload; `size` names one of its `sizes` (parameter sets replacing the
// defaults), then `overrides` ("name=value" from --set) replace parameters, all before
// any expression is evaluated. Throws util::InputError.
Workload load_workload(const std::string& path, const std::vector<std::string>& overrides = {},
                       const std::string& size = "");
// The same with the file's text given (nullptr: read `path`; files it names are found beside `path`).
Workload load_workload_text(const std::string* text, const std::string& path,
                            const std::vector<std::string>& overrides = {}, const std::string& size = "");

}  // namespace gpusim::workload
