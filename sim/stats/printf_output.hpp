// What a launch reports besides its memory: its printf output (each call's text after the
// block and thread that made it, in the order the simulation executed the calls), and the
// out-of-bounds accesses a run with --out-of-bounds continue went past.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

#include "exec/executor.hpp"

namespace gpusim::stats {

void write_printf_text(std::ostream& out, const exec::PrintfSink& sink);
nlohmann::ordered_json printf_json(const exec::PrintfSink& sink);
void write_out_of_bounds_text(std::ostream& out, const exec::OutOfBoundsLog& log);
nlohmann::ordered_json out_of_bounds_json(const exec::OutOfBoundsLog& log);

}  // namespace gpusim::stats
