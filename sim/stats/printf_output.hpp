// A launch's printf output in the reports: each call's text after the block and thread
// that made it, in the order the simulation executed the calls.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

#include "exec/executor.hpp"

namespace gpusim::stats {

void write_printf_text(std::ostream& out, const exec::PrintfSink& sink);
nlohmann::ordered_json printf_json(const exec::PrintfSink& sink);

}  // namespace gpusim::stats
