// The source view (gpusim run --source): per CUDA line and per PTX instruction, how often
// it ran and with how many lanes, where the warps waited while it was their next
// instruction (Nsight Compute's warp states), and its memory traffic. Lines are ranked
// by the warp cycles charged to them, hottest first. Without line information (PTX
// compiled without -lineinfo) the PTX lines stand in for the CUDA ones.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "core/instruction_profile.hpp"
#include "driver/timing_run.hpp"

namespace gpusim::report {

struct SourceLine {
  std::string file;  // as found on disk, or as the PTX names it
  int32_t line = 0;
  std::string text;  // the line's source text ("" when the file cannot be read)
  core::InstructionCounters counters;
  std::vector<size_t> instructions;  // into SourceView::profile, in PTX order
};

struct SourceView {
  std::string kernel;
  int launches = 0;
  bool line_info = false;             // CUDA lines; false: PTX lines
  core::InstructionProfile profile;   // summed over the kernel's launches
  std::vector<std::string> ptx_text;  // per instruction
  std::vector<SourceLine> lines;      // hottest first
  core::InstructionCounters total;
};

// What a line or an instruction reports besides its counters, declared once for every writer.
struct SourceField {
  const char* key;
  const char* label;  // in the text's memory column ("" where the text shows it elsewhere)
  const char* description;
  bool percent;  // a fraction shown as a percentage
  std::function<double(const core::InstructionCounters&)> value;
  std::function<bool(const core::InstructionCounters&)> applies;  // whether it has a value
};
const std::vector<SourceField>& source_fields();

// One view per kernel the run launched, in first-launch order. A source file the PTX
// names is looked for in search_dirs[0] (the workload's kernel folder) by its file name,
// then as named, then by file name in the other folders.
std::vector<SourceView> build_source_views(const driver::TimingRun& run, const std::vector<std::string>& search_dirs);

// The hottest `top` lines with their reasons, then each source file annotated.
void write_source_text(std::ostream& out, const std::vector<SourceView>& views, size_t top);
nlohmann::ordered_json source_json(const SourceView& view);

}  // namespace gpusim::report
