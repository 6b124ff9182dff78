// libFuzzer target: study files (YAML, value ranges, factors, designs) and their points.
// Seeds: studies/*.yaml. The text stands for studies/fuzz.yaml, so relative paths resolve as
// the bundled studies' do. Only the first points are checked: each loads real files.
#include "fuzz_common.hpp"
#include "study/points.hpp"
#include "study/study.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text = gpusim::fuzz::text_of(data, size);
  return gpusim::fuzz::expect_clean_error([&] {
    const auto s = gpusim::study::load_study_text(text, std::string(GPUSIM_SOURCE_DIR) + "/studies/fuzz.yaml");
    const auto plan = gpusim::study::make_plan(s);
    for (size_t i = 0; i < plan.points.size() && i < 4; ++i) gpusim::study::check_point(s, plan, plan.points[i]);
  });
}
