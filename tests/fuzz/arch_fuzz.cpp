// libFuzzer target: the architecture-file loader (YAML, declared parameters, bases,
// cross-field rules). Seeds: configs/*.yaml. The text stands for configs/fuzz.yaml, so a
// `base:` naming a real config is followed.
#include "arch/arch_loader.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text = gpusim::fuzz::text_of(data, size);
  return gpusim::fuzz::expect_clean_error(
      [&] { gpusim::arch::load_arch_config_text(&text, std::string(GPUSIM_SOURCE_DIR) + "/configs/fuzz.yaml"); });
}
