// `gpusim workload --arch A --workload W --dump-inputs DIR`: the workload as gpusim
// resolves it (parameters and size applied, every expression evaluated, each argument
// packed by the kernel's parameter types) written as DIR/manifest.json, with each buffer's
// initial contents as DIR/NAME.bin; so that the GPU harness (validate/run_gpu.py) runs
// exactly what gpusim simulates without re-implementing any of it.
// `gpusim digest --type T FILE`: the output digest (CRC-32 and samples) of a raw buffer.
#include <boost/program_options.hpp>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <span>
#include <sstream>

#include "arch/arch_loader.hpp"
#include "cli/app.hpp"
#include "driver/workload_kernels.hpp"
#include "driver/workload_session.hpp"
#include "frontend/kernel_loader.hpp"
#include "reference/output_digest.hpp"
#include "stats/check_report.hpp"
#include "stats/json_output.hpp"
#include "util/yaml_reader.hpp"
#include "workload/buffer_data.hpp"

namespace gpusim::cli {
namespace {

namespace po = boost::program_options;
using Json = nlohmann::ordered_json;

std::string hex(const uint8_t* bytes, size_t n) {
  std::ostringstream out;
  for (size_t i = 0; i < n; ++i) out << std::hex << std::setw(2) << std::setfill('0') << int{bytes[i]};
  return out.str();
}

void write_file(const std::filesystem::path& path, std::span<const uint8_t> bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw util::InputError("--dump-inputs: cannot write " + path.string());
}

Json launch_json(const workload::Workload& w, const kernel::Program& program, const workload::Step& step,
                 const workload::LaunchStep& launch) {
  // Arguments as gpusim packs them: the parameter buffer's bytes of each one.
  exec::DeviceMemory layout;  // buffer names only matter here; addresses are the GPU's
  for (const workload::Buffer& b : w.buffers) layout.allocate(b.name, 1, kernel::kGlobalHeapBase);
  const std::vector<uint8_t> packed = driver::pack_params(program, w, launch, layout, step.line);
  Json args = Json::array();
  for (size_t i = 0; i < program.params.size(); ++i) {
    const kernel::Param& p = program.params[i];
    Json a = {{"param", p.name}, {"ptx_type", kernel::type_name(p.type)}, {"bytes", p.size}};
    if (const auto* buf = std::get_if<workload::BufferArg>(&launch.args[i].value)) {
      a["buffer"] = buf->name;
      a["offset_elements"] = buf->offset;
    } else {
      a["little_endian_hex"] = hex(packed.data() + p.offset, p.size);
    }
    args.push_back(std::move(a));
  }
  return {{"entry", launch.entry}, {"grid", launch.grid}, {"block", launch.block}, {"shared_bytes", launch.shared_bytes},
          {"shared_opt_in", launch.shared_opt_in}, {"preferred_carveout", launch.preferred_carveout},
          {"args", std::move(args)}};
}

}  // namespace

int workload_command(const std::vector<std::string>& args, std::ostream& out) {
  po::options_description opts("gpusim workload options");
  std::string arch_file, workload_file, size, dir;
  std::vector<std::string> sets;
  opts.add_options()
      ("help,h", "show this help")
      ("arch", po::value(&arch_file)->required(), "architecture file (the kernel is compiled for it)")
      ("workload", po::value(&workload_file)->required(), "workload file")
      ("size", po::value(&size), "the workload's named parameter set")
      ("set", po::value(&sets)->composing(), "NAME=VALUE overrides a workload parameter; repeatable")
      ("dump-inputs", po::value(&dir)->required(), "folder to write manifest.json and the buffers' initial contents to");
  po::variables_map vm;
  po::store(po::command_line_parser(args).options(opts).run(), vm);
  if (vm.count("help")) {
    out << "usage: gpusim workload --arch ARCH.yaml --workload W.yaml [--size S] [--set N=V]... --dump-inputs DIR\n" << opts;
    return 0;
  }
  po::notify(vm);
  const arch::ArchConfig a = arch::load_arch_config(arch_file);
  const workload::Workload w = workload::load_workload(workload_file, sets, size);
  const driver::WorkloadKernels kernels = driver::load_workload_kernels(w, a.gpu.compute_capability);
  const frontend::LoadedKernel& k = kernels.main;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw util::InputError("--dump-inputs: cannot create folder " + dir + ": " + ec.message());

  Json manifest = {{"workload", w.name}, {"file", w.source_file}, {"size", w.size.empty() ? "default" : w.size}};
  manifest["params"] = Json::object();
  for (const auto& [name, value] : w.params) manifest["params"][name] = value;
  manifest["kernel"] = {{"source", w.kernel.source}, {"ptx", k.ptx_path}, {"entry", w.kernel.entry}};
  // Module variables (__device__, __constant__): a harness that repeats launches restores them too.
  manifest["symbols"] = Json::array();
  for (const kernel::ModuleVariable& v : k.module.variables)
    if (v.name[0] != '$') manifest["symbols"].push_back({{"name", v.name}, {"bytes", v.size}});
  for (const auto& [source, other] : kernels.others)
    for (const kernel::ModuleVariable& v : other.module.variables)
      if (v.name[0] != '$') manifest["symbols"].push_back({{"name", v.name}, {"bytes", v.size}, {"source", source}});
  manifest["buffers"] = Json::array();
  for (const workload::Buffer& b : w.buffers) {
    const util::Bytes bytes = workload::initial_bytes(b);
    write_file(std::filesystem::path(dir) / (b.name + ".bin"), bytes);
    manifest["buffers"].push_back({{"name", b.name}, {"type", workload::element_type_name(b.type)}, {"count", b.count},
                                   {"bytes", bytes.size()}, {"file", b.name + ".bin"}, {"pinned", b.pinned}});
  }
  manifest["steps"] = Json::array();
  for (const workload::Step& step : w.steps) {
    Json s = {{"line", step.line}, {"stream", step.stream}};
    if (std::holds_alternative<workload::DumpStep>(step.action)) continue;  // gpusim's own output, not the GPU's
    if (const auto* copy = std::get_if<workload::CopyStep>(&step.action))
      s["copy"] = copy->symbol.empty()
                      ? Json{{"direction", copy->to_device ? "to_device" : "to_host"}, {"buffer", copy->buffer}}
                      : Json{{"direction", "to_symbol"}, {"symbol", copy->symbol}, {"buffer", copy->buffer}};
    else {
      const auto& launch = std::get<workload::LaunchStep>(step.action);
      // A kernel gpusim cannot run may still be laid out for the GPU: no unsupported check here.
      const kernel::Program& program = driver::find_kernel(kernels.modules().of(launch.source), launch.entry,
                                                           w.source_file + ":" + std::to_string(step.line) + ": ");
      s["launch"] = launch_json(w, program, step, launch);
      if (!launch.source.empty()) s["launch"]["source"] = launch.source;  // a harness compiles that file too
    }
    manifest["steps"].push_back(std::move(s));
  }
  if (w.check) {
    const workload::Buffer* b = w.find_buffer(w.check->buffer);
    manifest["check"] = {{"buffer", b->name}, {"type", workload::element_type_name(b->type)},
                         {"tolerance", w.check->tolerance}};
  }
  std::ofstream file(std::filesystem::path(dir) / "manifest.json");
  stats::write_json(file, manifest);
  if (!file) throw util::InputError("--dump-inputs: cannot write " + dir + "/manifest.json");
  out << "wrote " << dir << "/manifest.json and " << w.buffers.size() << " buffer(s)\n";
  return 0;
}

int digest_command(const std::vector<std::string>& args, std::ostream& out) {
  po::options_description opts("gpusim digest options");
  std::string type, file;
  opts.add_options()
      ("help,h", "show this help")
      ("type", po::value(&type)->required(), "element type: u8, i32, u32, i64, u64, f32 or f64")
      ("file", po::value(&file)->required(), "raw little-endian elements");
  po::positional_options_description positional;
  positional.add("file", 1);
  po::variables_map vm;
  po::store(po::command_line_parser(args).options(opts).positional(positional).run(), vm);
  if (vm.count("help")) {
    out << "usage: gpusim digest --type T FILE\n" << opts;
    return 0;
  }
  po::notify(vm);
  workload::Buffer b;
  b.name = file;
  b.init = {workload::InitSpec::Kind::File, 0, 0, file};
  bool known = false;
  std::string names;
  for (auto t : workload::kElementTypes) {
    if (type == workload::element_type_name(t)) b.type = t, known = true;
    names += (names.empty() ? "" : ", ") + std::string(workload::element_type_name(t));
  }
  if (!known) throw util::InputError("--type '" + type + "': expected one of " + names);
  std::error_code ec;
  const auto size = std::filesystem::file_size(file, ec);
  if (ec) throw util::InputError(file + ": cannot read (" + ec.message() + ")");
  b.count = static_cast<int64_t>(size) / workload::element_size(b.type);
  const reference::OutputDigest d = reference::digest_output(workload::initial_bytes(b), b.type);
  char crc[11];
  std::snprintf(crc, sizeof crc, "%08x", d.crc32);
  stats::write_json(out, {{"crc32", crc}, {"count", b.count}, {"sample_indices", d.sample_indices}, {"samples", d.samples}});
  return 0;
}

}  // namespace gpusim::cli
