// libFuzzer target: the workload loader (YAML, expressions, buffers, steps, checks).
// Seeds: workloads/*.yaml. The text stands for workloads/fuzz.yaml, so relative kernel and
// data paths resolve as the bundled workloads' do.
#include "fuzz_common.hpp"
#include "workload/workload.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text = gpusim::fuzz::text_of(data, size);
  return gpusim::fuzz::expect_clean_error([&] {
    gpusim::workload::load_workload_text(&text, std::string(GPUSIM_SOURCE_DIR) + "/workloads/fuzz.yaml");
  });
}
