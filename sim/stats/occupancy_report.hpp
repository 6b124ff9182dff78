// Occupancy reports: the calculator's answer for one kernel (text, JSON) and the
// sweep tables behind its graphs (text, CSV, JSON).
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "arch/arch_config.hpp"
#include "arch/occupancy.hpp"
#include <nlohmann/json.hpp>

namespace gpusim::stats {

struct OccupancyReport {
  const arch::ArchConfig* arch = nullptr;
  arch::OccupancyResult result;
  arch::BestBlockSize best;  // cudaOccupancyMaxPotentialBlockSize for the same registers and shared memory
};

OccupancyReport make_occupancy_report(const arch::ArchConfig& arch, const arch::KernelResources& k);

void write_occupancy_text(std::ostream& out, const OccupancyReport& r);
void write_occupancy_json(std::ostream& out, const OccupancyReport& r);
// The same document as one value inside a larger one.
nlohmann::ordered_json occupancy_object(const OccupancyReport& r);
void write_occupancy_csv(std::ostream& out, const OccupancyReport& r);

// One row per swept point; `varied` names the swept variable for plots ("threads",
// "regs", "smem"), or "grid" for a cartesian product of several.
struct SweepRow {
  std::string varied;
  arch::OccupancyResult result;
};

void write_sweep_text(std::ostream& out, const arch::ArchConfig& arch, const std::vector<SweepRow>& rows);
void write_sweep_csv(std::ostream& out, const std::vector<SweepRow>& rows);
void write_sweep_json(std::ostream& out, const arch::ArchConfig& arch, const std::vector<SweepRow>& rows);

}  // namespace gpusim::stats
