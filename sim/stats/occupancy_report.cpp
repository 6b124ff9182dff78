#include "stats/occupancy_report.hpp"

#include <cstdio>
#include <iomanip>
#include <sstream>

#include "stats/json_output.hpp"

namespace gpusim::stats {
namespace {

using arch::kUnlimited;
using arch::Limiter;
using arch::OccupancyResult;

std::string blocks_text(int blocks) { return blocks == kUnlimited ? "unlimited" : std::to_string(blocks); }

std::string percent(double fraction) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100.0 * fraction);
  return buf;
}

bool binds(const OccupancyResult& r, Limiter which) {
  for (Limiter l : r.limiters)
    if (l == which) return true;
  return false;
}

std::string limiters_text(const OccupancyResult& r) {
  std::string out;
  for (Limiter l : r.limiters) out += (out.empty() ? "" : ", ") + std::string(arch::limiter_name(l));
  return out;
}

nlohmann::ordered_json blocks_json(int blocks) { return blocks == kUnlimited ? nlohmann::ordered_json() : nlohmann::ordered_json(blocks); }

}  // namespace

OccupancyReport make_occupancy_report(const arch::ArchConfig& arch, const arch::KernelResources& k) {
  return {&arch, arch::compute_occupancy(arch, k),
          arch::max_potential_block_size(arch, k.registers_per_thread, k.shared_bytes_per_block)};
}

void write_occupancy_text(std::ostream& out, const OccupancyReport& rep) {
  const arch::ArchConfig& a = *rep.arch;
  const OccupancyResult& r = rep.result;
  out << "Occupancy on " << a.gpu.name << " (compute capability " << a.gpu.compute_capability.str() << ", "
      << a.source_file << ")\n\n";
  out << "Kernel:      " << r.kernel.threads_per_block << " threads/block, " << r.kernel.registers_per_thread
      << " registers/thread, " << r.kernel.shared_bytes_per_block << " bytes shared memory/block\n";
  out << "Allocated:   " << r.warps_per_block << " warps, " << r.registers_per_block << " registers, "
      << r.shared_bytes_per_block << " bytes shared memory per block";
  if (a.shared_memory.reserved_per_block > 0)
    out << " (" << a.shared_memory.reserved_per_block << " reserved by the driver)";
  out << "\n\n";

  out << "  Limit            per block     per SM   blocks/SM\n";
  auto row = [&](const char* name, int64_t per_block, int64_t per_sm, int blocks, Limiter which) {
    out << "  " << std::left << std::setw(15) << name << std::right << std::setw(10) << per_block << std::setw(11)
        << per_sm << std::setw(12) << blocks_text(blocks) << (r.active_blocks > 0 && binds(r, which) ? "  <- binds" : "")
        << '\n';
  };
  row("warps", r.warps_per_block, a.limits.max_warps_per_sm, r.limit_warps, Limiter::Warps);
  row("blocks", 1, a.limits.max_blocks_per_sm, r.limit_blocks, Limiter::Blocks);
  row("registers", r.registers_per_block, a.registers.per_sm, r.limit_registers, Limiter::Registers);
  row("shared memory", r.shared_bytes_per_block, a.shared_memory.per_sm, r.limit_shared_memory, Limiter::SharedMemory);
  out << '\n';

  out << "Active blocks per SM:   " << r.active_blocks << '\n';
  out << "Active warps per SM:    " << r.active_warps << " of " << r.max_warps_per_sm << '\n';
  out << "Active threads per SM:  " << r.active_threads << " of " << a.limits.max_threads_per_sm << '\n';
  out << "Occupancy:              " << percent(r.occupancy);
  if (r.active_blocks == 0)
    out << "  (the block cannot launch: " << r.none_fit_reason << ")\n";
  else
    out << "  (limited by " << limiters_text(r) << ")\n";
  if (r.kernel.shared_bytes_per_block > a.shared_memory.max_per_block)
    out << "Note: more than " << a.shared_memory.max_per_block
        << " bytes of shared memory per block needs cudaFuncSetAttribute(cudaFuncAttributeMaxDynamicSharedMemorySize)\n";

  out << "\nCUDA API equivalents:\n";
  out << "  cudaOccupancyMaxActiveBlocksPerMultiprocessor = " << r.active_blocks << '\n';
  out << "  cudaOccupancyMaxPotentialBlockSize (" << r.kernel.registers_per_thread << " registers, "
      << r.kernel.shared_bytes_per_block << " bytes shared): ";
  if (rep.best.block_size == 0)
    out << "no block size fits\n";
  else
    out << "block size " << rep.best.block_size << ", min grid size " << rep.best.min_grid_size << " ("
        << rep.best.blocks_per_sm << " blocks/SM x " << a.gpu.sm_count << " SMs, occupancy " << percent(rep.best.occupancy)
        << ")\n";
}

void write_occupancy_json(std::ostream& out, const OccupancyReport& rep) { write_json(out, occupancy_object(rep)); }

nlohmann::ordered_json occupancy_object(const OccupancyReport& rep) {
  const arch::ArchConfig& a = *rep.arch;
  const OccupancyResult& r = rep.result;
  nlohmann::ordered_json j;
  j["arch"] = {{"file", a.source_file}, {"gpu", a.gpu.name}, {"compute_capability", a.gpu.compute_capability.str()}};
  j["kernel"] = {{"threads_per_block", r.kernel.threads_per_block},
                 {"registers_per_thread", r.kernel.registers_per_thread},
                 {"shared_memory_per_block", r.kernel.shared_bytes_per_block}};
  j["allocated_per_block"] = {
      {"warps", r.warps_per_block}, {"registers", r.registers_per_block}, {"shared_memory", r.shared_bytes_per_block}};
  j["blocks_per_sm_limit"] = {{"warps", blocks_json(r.limit_warps)},
                              {"blocks", blocks_json(r.limit_blocks)},
                              {"registers", blocks_json(r.limit_registers)},
                              {"shared_memory", blocks_json(r.limit_shared_memory)}};
  j["active_blocks_per_sm"] = r.active_blocks;
  j["active_warps_per_sm"] = r.active_warps;
  j["active_threads_per_sm"] = r.active_threads;
  j["max_warps_per_sm"] = r.max_warps_per_sm;
  j["occupancy"] = r.occupancy;
  j["limiter"] = arch::limiter_name(r.limiter);
  j["limiters"] = nlohmann::ordered_json::array();
  for (Limiter l : r.limiters) j["limiters"].push_back(arch::limiter_name(l));
  if (r.active_blocks == 0) j["reason"] = r.none_fit_reason;
  j["max_active_blocks_per_multiprocessor"] = r.active_blocks;
  j["max_potential_block_size"] = {{"block_size", rep.best.block_size},
                                   {"min_grid_size", rep.best.min_grid_size},
                                   {"blocks_per_sm", rep.best.blocks_per_sm},
                                   {"occupancy", rep.best.occupancy}};
  return j;
}

void write_occupancy_csv(std::ostream& out, const OccupancyReport& rep) {
  write_sweep_csv(out, {{"single", rep.result}});
}

void write_sweep_text(std::ostream& out, const arch::ArchConfig& a, const std::vector<SweepRow>& rows) {
  out << "Occupancy on " << a.gpu.name << " (compute capability " << a.gpu.compute_capability.str() << ", "
      << a.limits.max_warps_per_sm << " warps per SM)\n\n";
  out << " threads  regs     smem | blocks/SM  warps/SM  occupancy | limiter\n";
  for (const SweepRow& row : rows) {
    const OccupancyResult& r = row.result;
    out << std::setw(8) << r.kernel.threads_per_block << std::setw(6) << r.kernel.registers_per_thread << std::setw(9)
        << r.kernel.shared_bytes_per_block << " |" << std::setw(10) << r.active_blocks << std::setw(10) << r.active_warps
        << std::setw(11) << percent(r.occupancy) << " | "
        << (r.active_blocks == 0 ? "none_fit: " + r.none_fit_reason : limiters_text(r)) << '\n';
  }
}

void write_sweep_csv(std::ostream& out, const std::vector<SweepRow>& rows) {
  out << "varied,threads_per_block,registers_per_thread,shared_memory_per_block,active_blocks_per_sm,"
         "active_warps_per_sm,max_warps_per_sm,occupancy,limiter\n";
  for (const SweepRow& row : rows) {
    const OccupancyResult& r = row.result;
    out << row.varied << ',' << r.kernel.threads_per_block << ',' << r.kernel.registers_per_thread << ','
        << r.kernel.shared_bytes_per_block << ',' << r.active_blocks << ',' << r.active_warps << ','
        << r.max_warps_per_sm << ',' << r.occupancy << ',' << arch::limiter_name(r.limiter) << '\n';
  }
}

void write_sweep_json(std::ostream& out, const arch::ArchConfig& a, const std::vector<SweepRow>& rows) {
  nlohmann::ordered_json j;
  j["file"] = a.source_file;
  j["gpu"] = a.gpu.name;
  j["points"] = nlohmann::ordered_json::array();
  for (const SweepRow& row : rows) {
    const OccupancyResult& r = row.result;
    nlohmann::ordered_json p = {{"threads_per_block", r.kernel.threads_per_block},
                                {"registers_per_thread", r.kernel.registers_per_thread},
                                {"shared_memory_per_block", r.kernel.shared_bytes_per_block},
                                {"active_blocks_per_sm", r.active_blocks},
                                {"active_warps_per_sm", r.active_warps},
                                {"max_warps_per_sm", r.max_warps_per_sm},
                                {"occupancy", r.occupancy},
                                {"limiter", arch::limiter_name(r.limiter)}};
    if (r.active_blocks == 0) p["reason"] = r.none_fit_reason;
    j["points"].push_back(std::move(p));
  }
  write_json(out, j);
}

}  // namespace gpusim::stats
