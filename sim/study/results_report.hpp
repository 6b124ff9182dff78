// Reading a results database back: every point x launch row as CSV or JSON Lines, the
// contexts (study, architecture, workload, size) with their counts, and the analysis of
// a metric per context as text (a ranked "what matters" table) or JSON (for plots).
#pragma once

#include <nlohmann/json.hpp>

#include <ostream>
#include <string>
#include <vector>

#include "study/analysis.hpp"
#include "study/results_db.hpp"

namespace gpusim::study {

struct Context {
  std::string study, arch_file, arch, workload_file, workload, size, design;
  size_t ok = 0, failed = 0;
  std::vector<std::string> factors;  // names, in the study's order
  std::string label() const;         // "workload on arch"
};

// Every context in the database (of `study` only, when given), in first-run order.
std::vector<Context> contexts(const ResultsDb& db, const std::string& study = "");

// The observations of `metric` (see metric_columns.hpp) at the context's ok points.
std::vector<Observation> observations(const ResultsDb& db, const Context& c, const std::string& metric);

// One row per point and launch (a failed point without launches: one row): identity,
// status, error, factors as factor.NAME, then the launch's columns.
void write_rows(const ResultsDb& db, const std::string& study, bool jsonl, std::ostream& out);

// Counts, failures and the ranked table of each metric for every context.
void write_summary(const ResultsDb& db, const std::string& study, const std::vector<std::string>& metrics,
                   std::ostream& out);

// The analysis of each metric for every context, as the plots read it.
nlohmann::ordered_json analysis_json(const ResultsDb& db, const std::string& study,
                                     const std::vector<std::string>& metrics);

// The metrics the studies in the database asked for (their `metrics:`), or cycles.
std::vector<std::string> study_metrics(const ResultsDb& db, const std::string& study = "");

}  // namespace gpusim::study
