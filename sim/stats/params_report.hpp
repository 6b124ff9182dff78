// The declared parameters as reports: one configuration's values and where each came
// from (`gpusim params --arch FILE`), and the reference of every parameter with its type,
// unit, default, range and description (docs/config-reference.md is this, generated).
#pragma once

#include <ostream>
#include <vector>

#include "util/params.hpp"

namespace gpusim::stats {

void write_params_text(std::ostream& out, const std::string& file, const std::vector<params::ParamInfo>& params,
                       const params::Origins& origins);
void write_params_json(std::ostream& out, const std::string& file, const std::vector<params::ParamInfo>& params,
                       const params::Origins& origins);
// Markdown: every declared parameter, by section (the values are not shown).
void write_params_reference(std::ostream& out, const std::vector<params::ParamInfo>& params);

}  // namespace gpusim::stats
