// JSON documents are built with nlohmann::json (ordered, so keys keep the order written)
// and printed here, so every report indents and ends the same way.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

namespace gpusim::stats {

inline void write_json(std::ostream& out, const nlohmann::ordered_json& j) { out << j.dump(2) << '\n'; }

}  // namespace gpusim::stats
