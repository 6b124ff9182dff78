#include "reference/script_reference.hpp"
#include "workload/npy.hpp"
#include "driver/workload_session.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <variant>

#include "exec/block_runner.hpp"
#include "util/host_memory.hpp"
#include "util/parallel_for.hpp"
#include "util/yaml_reader.hpp"
#include "workload/buffer_data.hpp"

namespace gpusim::driver {
namespace {

using util::InputError;

std::string where(const workload::Workload& w, int line) { return w.source_file + ":" + std::to_string(line) + ": "; }

// A buffer's copy between host and GPU, on `threads` threads: each makes its part of the
// destination's fresh pages present (util/bytes.hpp), side by side.
void copy_bytes(const util::Bytes& from, util::Bytes& to, int threads) {
  to.resize(from.size());  // a no-op (a buffer has one size on both sides), kept so that memcpy stays inside `to`
  util::parallel_for(static_cast<int64_t>(from.size()), threads, util::kMinBytesPerThread,
                     [&](int64_t, int64_t begin, int64_t end) {
                       util::prefault(to.data() + begin, static_cast<size_t>(end - begin));
                       std::memcpy(to.data() + begin, from.data() + begin, static_cast<size_t>(end - begin));
                     });
}

// A device buffer's pages made present and writable on `threads` threads, side by side. Else
// a buffer no copy fills (an output) takes a page fault at each page's first store, when the
// cycle's stores are applied: in SM order on one thread, while the other threads wait.
void make_present(util::Bytes& bytes, int threads) {
  util::parallel_for(static_cast<int64_t>(bytes.size()), threads, util::kMinBytesPerThread,
                     [&](int64_t, int64_t begin, int64_t end) {
                       util::prefault(bytes.data() + begin, static_cast<size_t>(end - begin));
                     });
}

void put(std::vector<uint8_t>& out, uint32_t offset, const void* src, uint32_t size) {
  std::memcpy(out.data() + offset, src, size);
}

}  // namespace

std::vector<uint8_t> pack_params(const kernel::Program& program, const workload::Workload& w,
                                 const workload::LaunchStep& launch, const exec::DeviceMemory& memory, int line) {
  if (launch.args.size() != program.params.size())
    throw InputError(where(w, line) + "launch: " + program.name + " takes " + std::to_string(program.params.size()) +
                     " arguments, the workload gives " + std::to_string(launch.args.size()));
  std::vector<uint8_t> out(program.param_bytes, 0);
  for (size_t i = 0; i < launch.args.size(); ++i) {
    const kernel::Param& p = program.params[i];
    const auto& v = launch.args[i].value;
    const std::string which = "launch: argument " + std::to_string(i + 1) + " (" + p.name + ")";
    if (const auto* buf = std::get_if<workload::BufferArg>(&v)) {
      if (p.size != 8) throw InputError(where(w, line) + which + ": buffer '" + buf->name + "' passed to a " + std::to_string(p.size) + "-byte parameter");
      const uint64_t base = memory.find(buf->name)->base +
                            static_cast<uint64_t>(buf->offset) * workload::element_size(w.find_buffer(buf->name)->type);
      put(out, p.offset, &base, 8);
    } else if (const auto* fields = std::get_if<workload::StructArg>(&v)) {
      std::vector<uint8_t> bytes = workload::struct_bytes(*fields);
      if (bytes.size() > p.size)
        throw InputError(where(w, line) + which + ": the struct's fields take " + std::to_string(bytes.size()) +
                         " bytes, the parameter has " + std::to_string(p.size));
      put(out, p.offset, bytes.data(), bytes.size());
    } else if (const auto* d = std::get_if<double>(&v)) {
      // A float literal goes to a float parameter (or an untyped one of its size) only: packing
      // its bits into an integer would silently pass a meaningless number.
      if (p.type == kernel::DataType::F64 || p.type == kernel::DataType::B64) {
        put(out, p.offset, d, 8);
      } else if (p.type == kernel::DataType::F32 || p.type == kernel::DataType::B32) {
        const float f = static_cast<float>(*d);
        put(out, p.offset, &f, 4);
      } else {
        throw InputError(where(w, line) + which + ": a float literal for a " + kernel::type_name(p.type) + " parameter");
      }
    } else {
      const int64_t n = std::get<int64_t>(v);
      if (p.size == 4) {
        if (n < INT32_MIN || n > UINT32_MAX) throw InputError(where(w, line) + which + ": " + std::to_string(n) + " does not fit 32 bits");
        const uint32_t u = static_cast<uint32_t>(n);
        put(out, p.offset, &u, 4);
      } else if (p.size == 8) {
        put(out, p.offset, &n, 8);
      } else {
        throw InputError(where(w, line) + which + ": an integer for a " + std::to_string(p.size) + "-byte parameter");
      }
    }
  }
  return out;
}

WorkloadSession::WorkloadSession(const workload::Workload& w, const Modules& modules, const arch::ArchConfig* arch,
                                 int threads)
    : w_(w), modules_(modules), arch_(arch), threads_(threads) {
  for (const kernel::Module* module : modules.all()) memory_.map_variables(*module);
  check_memory();
  for (const workload::Buffer& b : w.buffers) {
    try {
      host_[b.name] = workload::initial_bytes(b, threads_);
      memory_.allocate(b.name, host_[b.name].size(), kernel::kGlobalHeapBase);  // device memory starts zeroed
      make_present(memory_.find(b.name)->bytes, threads_);
    } catch (const std::bad_alloc&) {
      throw InputError(w.source_file + ": buffer '" + b.name + "' (" + std::to_string(buffer_bytes(b)) +
                       " bytes): this host cannot give the memory to simulate it");
    }
  }
}

reference::Buffers WorkloadSession::initial() const {
  // Not kept from the start: a copy of every buffer for the whole run would add its size to
  // the peak. A host copy that no step copies to the host still holds them; the others are
  // made again (initial contents are deterministic: zeros, seeded random, a file), which
  // took 4% of a Volta vecadd's run for its two random inputs.
  const auto copied_to_host = [this](const std::string& name) {
    return std::any_of(w_.steps.begin(), w_.steps.end(), [&](const workload::Step& step) {
      const auto* copy = std::get_if<workload::CopyStep>(&step.action);
      return copy && !copy->to_device && copy->buffer == name;
    });
  };
  reference::Buffers initial;
  for (const workload::Buffer& b : w_.buffers)
    initial[b.name] = copied_to_host(b.name) ? workload::initial_bytes(b, threads_) : host_.at(b.name);
  return initial;
}

uint64_t WorkloadSession::buffer_bytes(const workload::Buffer& b) {
  return static_cast<uint64_t>(b.count) * static_cast<uint64_t>(workload::element_size(b.type));  // < 2^63 (loader)
}

void WorkloadSession::check_memory() const {
  // Buffers are checked before any is taken: against the GPU's memory, and against this
  // host's, which holds each buffer up to three times (the device image, the host copy, and
  // the initial contents a reference check computes from), naming the buffer that does not fit.
  uint64_t total = 0;
  const std::optional<uint64_t> host = util::available_host_memory();
  for (const workload::Buffer& b : w_.buffers) {
    if (__builtin_add_overflow(total, buffer_bytes(b), &total)) total = UINT64_MAX;  // each is below 2^63
    if (arch_ && total > static_cast<uint64_t>(arch_->memory.dram.size_bytes))
      throw InputError(w_.source_file + ": buffer '" + b.name + "' (" + std::to_string(buffer_bytes(b)) +
                       " bytes) brings the workload's buffers to " + std::to_string(total) + " bytes, more than the " +
                       std::to_string(arch_->memory.dram.size_bytes) + " bytes of device memory of " + arch_->gpu.name);
    if (host && total > *host / 3)
      throw InputError(w_.source_file + ": buffer '" + b.name + "' (" + std::to_string(buffer_bytes(b)) +
                       " bytes) brings the workload's buffers to " + std::to_string(total) +
                       " bytes; simulating them takes three times that, more than the " + std::to_string(*host) +
                       " bytes this host has available");
  }
}

void WorkloadSession::run(const LaunchFn& on_launch, const CopyFn& on_copy) {
  for (const workload::Step& step : w_.steps) {
    if (const auto* copy = std::get_if<workload::CopyStep>(&step.action)) {
      auto& host = host_[copy->buffer];
      if (!copy->symbol.empty()) {  // cudaMemcpyToSymbol
        copy_to_symbol(step, *copy, host);
        if (on_copy) on_copy(step, *copy, host.size());
        continue;
      }
      auto* region = memory_.find(copy->buffer);
      if (copy->to_device) copy_bytes(host, region->bytes, threads_);
      else copy_bytes(region->bytes, host, threads_);
      if (on_copy) on_copy(step, *copy, host.size());
      continue;
    }
    if (const auto* dump = std::get_if<workload::DumpStep>(&step.action)) {
      write_dump(*dump);
      continue;
    }
    const auto& launch = std::get<workload::LaunchStep>(step.action);
    const kernel::Program& program = program_of(step, launch);
    check_limits(step, launch, program);
    exec::LaunchConfig config;
    for (int i = 0; i < 3; ++i) {
      config.grid[i] = static_cast<uint32_t>(launch.grid[i]);
      config.block[i] = static_cast<uint32_t>(launch.block[i]);
    }
    config.dynamic_shared_bytes = static_cast<uint32_t>(launch.shared_bytes);
    config.preferred_carveout = launch.preferred_carveout;
    if (program.uses_dynamic_shared && launch.shared_bytes == 0)
      throw InputError(where(w_, step.line) + "launch: " + program.name +
                       " declares dynamic shared memory (extern __shared__) but shared_bytes is 0");
    config.params = pack_params(program, w_, launch, memory_, step.line);
    config.origin = w_.source_file + ":" + std::to_string(step.line);
    on_launch(step, launch, program, config);
  }
  for (const workload::DumpStep& dump : w_.final_dumps) write_dump(dump);
}

void WorkloadSession::write_dump(const workload::DumpStep& dump) {
  workload::write_buffer_file(dump.file, w_.find_buffer(dump.buffer)->type, memory_.find(dump.buffer)->bytes);
}

void WorkloadSession::copy_to_symbol(const workload::Step& step, const workload::CopyStep& copy,
                                     const util::Bytes& bytes) {
  // The workload's kernel's module first, then the other sources' (as the host code of that file would see it).
  const kernel::ModuleVariable* var = nullptr;
  std::string names;
  for (const kernel::Module* module : modules_.all())
    for (const kernel::ModuleVariable& v : module->variables) {
      if (v.name == copy.symbol && !var) var = &v;
      if (v.name[0] != '$' && v.name.rfind("__cudart", 0) != 0) names += (names.empty() ? "" : ", ") + v.name;
    }
  if (!var)
    throw InputError(where(w_, step.line) + "copy: no __device__ or __constant__ variable '" + copy.symbol + "' in " +
                     modules_.main->file + " (it has: " + (names.empty() ? "none" : names) + ")");
  if (bytes.size() > var->size)
    throw InputError(where(w_, step.line) + "copy: buffer '" + copy.buffer + "' has " + std::to_string(bytes.size()) +
                     " bytes, variable '" + copy.symbol + "' only " + std::to_string(var->size));
  std::copy(bytes.begin(), bytes.end(), memory_.translate(var->address, var->size));  // by address: names may repeat across modules
}

const kernel::Program& find_kernel(const kernel::Module& module, const std::string& entry, const std::string& where) {
  if (const kernel::Program* p = module.find(entry)) return *p;
  std::string names;
  for (const kernel::Program& k : module.kernels) names += (names.empty() ? "" : ", ") + k.name;
  throw InputError(where + "launch: no kernel '" + entry + "' in " + module.file + " (it has: " + names + ")");
}

const kernel::Program& WorkloadSession::program_of(const workload::Step& step, const workload::LaunchStep& launch) const {
  const kernel::Program& p = find_kernel(modules_.of(launch.source), launch.entry, where(w_, step.line));
  if (!p.unsupported.empty()) throw InputError(where(w_, step.line) + "launch of " + p.name + ": " + p.unsupported);
  return p;
}

void WorkloadSession::check_limits(const workload::Step& step, const workload::LaunchStep& launch,
                                   const kernel::Program& program) const {
  if (!arch_) return;
  const arch::Limits& l = arch_->limits;
  const std::string gpu = arch_->gpu.name + " (" + arch_->source_file + ")";
  static const char* const axis[] = {"x", "y", "z"};
  int64_t threads = 1;
  for (int i = 0; i < 3; ++i) {
    if (launch.grid[i] > l.max_grid_dims[i])
      throw InputError(where(w_, step.line) + "launch: grid " + axis[i] + " = " + std::to_string(launch.grid[i]) +
                       " exceeds max_grid_dims " + std::to_string(l.max_grid_dims[i]) + " of " + gpu);
    if (launch.block[i] > l.max_block_dims[i])
      throw InputError(where(w_, step.line) + "launch: block " + axis[i] + " = " + std::to_string(launch.block[i]) +
                       " exceeds max_block_dims " + std::to_string(l.max_block_dims[i]) + " of " + gpu);
    threads *= launch.block[i];
  }
  if (threads > l.max_threads_per_block)
    throw InputError(where(w_, step.line) + "launch: " + std::to_string(threads) + " threads per block exceed " +
                     "max_threads_per_block " + std::to_string(l.max_threads_per_block) + " of " + gpu);
  // As CUDA: static shared memory stays within max_per_block; static plus dynamic may reach
  // max_per_block_optin only when the launch opts in (cudaFuncSetAttribute).
  const arch::SharedMemory& sm = arch_->shared_memory;
  const int64_t shared = int64_t{program.static_shared_bytes} + launch.shared_bytes;
  const std::string amount = std::to_string(shared) + " bytes of shared memory per block (" +
                             std::to_string(program.static_shared_bytes) + " static + " +
                             std::to_string(launch.shared_bytes) + " dynamic)";
  if (program.static_shared_bytes > sm.max_per_block)
    throw InputError(where(w_, step.line) + "launch: " + program.name + " declares " +
                     std::to_string(program.static_shared_bytes) + " bytes of static shared memory, more than " +
                     "max_per_block " + std::to_string(sm.max_per_block) + " of " + gpu +
                     " (above it, only dynamic shared memory can opt in)");
  if (launch.shared_opt_in && shared > sm.max_per_block_optin)
    throw InputError(where(w_, step.line) + "launch: " + amount + " exceed max_per_block_optin " +
                     std::to_string(sm.max_per_block_optin) + " of " + gpu);
  if (!launch.shared_opt_in && shared > sm.max_per_block)
    throw InputError(where(w_, step.line) + "launch: " + amount + " exceed max_per_block " +
                     std::to_string(sm.max_per_block) + " of " + gpu +
                     (sm.max_per_block_optin > sm.max_per_block
                          ? "; up to max_per_block_optin " + std::to_string(sm.max_per_block_optin) +
                                " needs 'shared_opt_in: true' in the launch (cudaFuncSetAttribute on the GPU)"
                          : ""));
}

util::Bytes WorkloadSession::reference_kernel_output() const {
  // The program's copies before its first launch, then the reference kernel instead of the launches.
  workload::Workload ref = w_;
  ref.steps.clear();
  ref.check.reset();
  ref.final_dumps.clear();
  for (const workload::Step& step : w_.steps) {
    if (std::holds_alternative<workload::LaunchStep>(step.action)) break;
    if (std::holds_alternative<workload::CopyStep>(step.action)) ref.steps.push_back(step);
  }
  workload::Step launch;
  launch.action = *w_.check->reference_kernel;
  launch.line = w_.check->reference_line;
  ref.steps.push_back(launch);
  WorkloadSession session(ref, modules_, arch_, threads_);
  exec::RunLimits limits;
  limits.start();
  session.run([&](const workload::Step&, const workload::LaunchStep&, const kernel::Program& program,
                  const exec::LaunchConfig& config) {
    try {
      exec::run_functional(program, session.memory(), config, limits, 0, threads_);
    } catch (const exec::ExecError& e) {
      throw exec::ExecError(where(w_, launch.line) + "check.reference_kernel: " + e.what());
    }
  });
  return session.memory().find(w_.check->buffer)->bytes;
}

std::optional<reference::CheckResult> WorkloadSession::check() const {
  if (!w_.check) return std::nullopt;
  const workload::Buffer* b = w_.find_buffer(w_.check->buffer);
  util::Bytes want;
  if (!w_.check->reference.empty()) {
    const reference::ReferenceFn* fn = reference::find_reference(w_.check->reference);
    if (!fn) throw InputError(w_.source_file + ": check.reference: no reference named '" + w_.check->reference + "'");
    want = (*fn)(w_, initial(), threads_);
  } else if (!w_.check->script.empty()) {
    want = reference::script_expected(w_, initial());
  } else if (w_.check->reference_kernel) {
    want = reference_kernel_output();
  } else {
    workload::Buffer expected = *b;
    expected.init = {workload::InitSpec::Kind::File, 0, 0, w_.check->expected_file};
    want = workload::initial_bytes(expected);
  }
  reference::CheckResult result =
      reference::compare_buffers(host_.at(b->name), want, b->type, w_.check->tolerance, threads_);
  result.output = reference::digest_output(host_.at(b->name), b->type);
  return result;
}

}  // namespace gpusim::driver
