// `gpusim results DB`: a study database's summary and "what matters" tables, its rows as
// CSV or JSON Lines, or the analysis as JSON (what scripts/plot_study.py draws).
#include <boost/program_options.hpp>
#include <filesystem>
#include <fstream>

#include "cli/app.hpp"
#include "stats/json_output.hpp"
#include "study/metric_columns.hpp"
#include "study/results_report.hpp"
#include "util/yaml_reader.hpp"

namespace gpusim::cli {

int results_command(const std::vector<std::string>& args, std::ostream& out) {
  namespace po = boost::program_options;
  po::options_description opts("gpusim results options");
  std::string db_path, study_name, format = "text", out_file;
  std::vector<std::string> metrics;
  opts.add_options()
      ("help,h", "show this help")
      ("db", po::value(&db_path), "the results database a sweep wrote")
      ("study", po::value(&study_name), "only this study's points (a database may hold several)")
      ("format", po::value(&format),
       "text (default: counts, failures and what matters), csv or jsonl (a row per point and launch), "
       "json (the analysis: responses, elasticities, two-factor maps)")
      ("metric", po::value(&metrics)->composing(), "a metric to analyse (default: the study's `metrics`); repeatable")
      ("metrics", "list the metrics that can be analysed")
      ("out", po::value(&out_file), "write to this file instead of standard output");
  po::positional_options_description pos;
  pos.add("db", 1);
  po::variables_map vm;
  po::store(po::command_line_parser(args).options(opts).positional(pos).run(), vm);
  if (vm.count("help")) {
    out << "usage: gpusim results DB [--format text|csv|jsonl|json] [--metric NAME]... [--study NAME] [--out FILE]\n"
        << opts;
    return 0;
  }
  po::notify(vm);
  if (vm.count("metrics")) {
    for (const study::Column& c : study::launch_columns())
      out << c.name << (c.combine == stats::Combine::Sum ? "  (sum over launches)" : "  (cycle-weighted mean)") << '\n';
    for (const study::Column& c : study::launch_columns())
      if (c.name.rfind("stall_", 0) == 0 && c.name != "stall_cycles")
        out << "stall_share_" << c.name.substr(6) << "  (share of scheduler cycles)\n";
    return 0;
  }
  if (db_path.empty()) throw util::InputError("a results database is required: gpusim results DB");
  if (format != "text" && format != "csv" && format != "jsonl" && format != "json")
    throw util::InputError("--format '" + util::clipped(format) + "': expected text, csv, jsonl or json");
  if (!std::filesystem::exists(db_path)) throw util::InputError(db_path + ": no such results database");
  for (const std::string& m : metrics)
    if (!study::is_metric(m))
      throw util::InputError("--metric '" + util::clipped(m) + "': not a metric (" + study::metric_names_hint() + ")");
  const study::ResultsDb db(db_path, false);
  if (!study_name.empty() && study::contexts(db, study_name).empty())
    throw util::InputError("--study '" + util::clipped(study_name) + "': " + db_path + " has no points of that study");
  if (metrics.empty()) metrics = study::study_metrics(db, study_name);

  std::ofstream file;
  if (!out_file.empty()) {
    file.open(out_file);
    if (!file) throw util::InputError("--out '" + out_file + "': cannot write it");
  }
  std::ostream& o = out_file.empty() ? out : file;
  if (format == "csv" || format == "jsonl") study::write_rows(db, study_name, format == "jsonl", o);
  else if (format == "json") stats::write_json(o, study::analysis_json(db, study_name, metrics));
  else study::write_summary(db, study_name, metrics, o);
  return 0;
}

}  // namespace gpusim::cli
