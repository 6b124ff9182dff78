// Device functions: a call gives each calling lane a new frame on its stack (in local
// memory), copies the arguments into it and pushes a SIMT entry at the function; a return
// copies the result back and pops the lane's frame. CUDA's printf and assert are builtins.
#include <cstdio>
#include <cstring>

#include "exec/executor.hpp"

namespace gpusim::exec {

using kernel::Builtin;
using kernel::CallSite;
using kernel::StateSpace;

void Executor::call(WarpState& w, BlockState& b, const Instruction& in, uint32_t mask) {
  const CallSite& site = program_.call_sites[static_cast<size_t>(in.src[0].imm)];
  ++w.stack.back().pc;  // every active lane continues after the call (the callers once they return)
  if (mask == 0) return;
  if (site.callee < 0) return builtin_call(w, b, site, mask);
  const kernel::Function& f = program_.functions[static_cast<size_t>(site.callee)];
  if (!w.calls) w.calls = std::make_unique<CallState>();
  CallState& cs = *w.calls;
  for_each_lane(mask, [&](uint32_t lane) {
    const uint32_t caller_fp = cs.fp[lane];
    const uint32_t fp = caller_fp + site.caller_frame_bytes + kernel::kCallOverhead;
    if (uint64_t{fp} + f.frame_bytes > program_.local_bytes)
      fault(w, b, lane, "call stack overflow calling " + f.name + " (" + std::to_string(cs.calls[lane].size() + 1) +
                            " calls deep, more than the " + std::to_string(program_.local_bytes - program_.kernel_frame_bytes) +
                            " bytes of stack per thread; CUDA's default stack is 1024 bytes): endless recursion?");
    uint8_t* local = w.local.data() + size_t{lane} * program_.local_bytes;
    for (size_t i = 0; i < site.args.size() && i < f.params.size(); ++i)
      std::memcpy(local + fp + f.params[i].first, local + caller_fp + site.args[i].first,
                  std::min(site.args[i].second, f.params[i].second));
    CallRecord rec{caller_fp, static_cast<uint32_t>(in.src[0].imm), static_cast<uint32_t>(cs.saved[lane].size())};
    if (f.recursive)  // this activation's registers would overwrite the caller's own
      for (uint32_t r = f.first_reg; r < f.first_reg + f.reg_count; ++r) {
        cs.saved[lane].push_back(load(w, r, lane));
        cs.saved[lane].push_back(w.defined[r] >> lane & 1u);
      }
    cs.calls[lane].push_back(rec);
    cs.fp[lane] = fp;
  });
  w.stack.push_back({f.entry_pc, kCallEntry, mask});
}

void Executor::function_return(WarpState& w, BlockState&, uint32_t mask) {
  CallState& cs = *w.calls;
  for_each_lane(mask, [&](uint32_t lane) {
    const CallRecord rec = cs.calls[lane].back();
    cs.calls[lane].pop_back();
    const CallSite& site = program_.call_sites[rec.site];
    const kernel::Function& f = program_.functions[static_cast<size_t>(site.callee)];
    uint8_t* local = w.local.data() + size_t{lane} * program_.local_bytes;
    if (site.ret_bytes)
      std::memcpy(local + rec.caller_fp + site.ret_offset, local + cs.fp[lane] + f.ret_offset,
                  std::min(site.ret_bytes, f.ret_bytes));
    if (f.recursive) {
      std::vector<uint64_t>& saved = cs.saved[lane];
      size_t at = rec.saved_from;
      for (uint32_t r = f.first_reg; r < f.first_reg + f.reg_count; ++r, at += 2) {
        store(w, r, lane, saved[at]);
        w.defined[r] = (w.defined[r] & ~(1u << lane)) | (static_cast<uint32_t>(saved[at + 1]) << lane);
      }
      saved.resize(rec.saved_from);
    }
    cs.fp[lane] = rec.caller_fp;
  });
  // The returning lanes leave every entry of this activation: from the call's entry up.
  size_t k = w.stack.size();
  while (k > 0 && w.stack[k - 1].reconverge_pc != kCallEntry) --k;
  for (size_t i = k > 0 ? k - 1 : 0; i < w.stack.size(); ++i) w.stack[i].mask &= ~mask;
}

void Executor::builtin_call(WarpState& w, BlockState& b, const CallSite& site, uint32_t mask) {
  const auto arg = [&](uint32_t lane, size_t i) -> uint64_t {
    if (i >= site.args.size()) return 0;
    uint64_t v = 0;
    std::memcpy(&v, w.local.data() + size_t{lane} * program_.local_bytes + w.fp(lane) + site.args[i].first,
                std::min<uint32_t>(site.args[i].second, 8));
    return v;
  };
  for_each_lane(mask, [&](uint32_t lane) {
    int32_t result = 0;
    if (site.callee == static_cast<int32_t>(Builtin::AssertFail)) {
      // __assertfail(message, file, line, function, char size)
      fault(w, b, lane, "assertion failed: " + device_string(w, b, lane, arg(lane, 1)) + ":" +
                            std::to_string(static_cast<uint32_t>(arg(lane, 2))) + ": " +
                            device_string(w, b, lane, arg(lane, 3)) + ": " + device_string(w, b, lane, arg(lane, 0)));
    }
    const std::string text = format_printf(w, b, lane, arg(lane, 0), arg(lane, 1));
    result = static_cast<int32_t>(text.size());
    if (printf_) {
      if (printf_->bytes + text.size() > PrintfSink::kFifoBytes) {
        ++printf_->dropped;
        result = -1;
      } else {
        const uint32_t tid = w.warp_in_block * kWarpSize + lane;
        const auto& blk = launch_.block;
        printf_->records.push_back({b.index, {tid % blk[0], tid / blk[0] % blk[1], tid / (blk[0] * blk[1])}, text});
        printf_->bytes += text.size();
      }
    }
    if (site.ret_bytes)
      std::memcpy(w.local.data() + size_t{lane} * program_.local_bytes + w.fp(lane) + site.ret_offset, &result,
                  std::min<uint32_t>(site.ret_bytes, 4));
  });
}

std::string Executor::device_string(WarpState& w, BlockState& b, uint32_t lane, uint64_t addr) {
  std::string s;
  if (addr == 0) return "(null)";
  for (;; ++addr) {
    const char c = static_cast<char>(*address(w, b, StateSpace::Generic, addr, 1, lane, "printf string read"));
    if (c == '\0' || s.size() >= 4096) break;
    s.push_back(c);
  }
  return s;
}

// CUDA's printf: the arguments follow one another in a buffer, each aligned to its size;
// integers narrower than int and floats are promoted (to int and double) as in C.
std::string Executor::format_printf(WarpState& w, BlockState& b, uint32_t lane, uint64_t format, uint64_t args) {
  const std::string fmt = device_string(w, b, lane, format);
  std::string out;
  uint64_t at = 0;
  const auto next_arg = [&](uint32_t size) -> uint64_t {
    at = (at + size - 1) / size * size;
    uint64_t v = 0;
    std::memcpy(&v, address(w, b, StateSpace::Generic, args + at, size, lane, "printf argument read"), size);
    at += size;
    return v;
  };
  for (size_t i = 0; i < fmt.size(); ++i) {
    if (fmt[i] != '%') {
      out.push_back(fmt[i]);
      continue;
    }
    size_t j = i + 1;
    std::string spec = "%";
    while (j < fmt.size() && std::strchr("-+ #0123456789.", fmt[j])) spec.push_back(fmt[j++]);
    int longs = 0;
    for (; j < fmt.size() && std::strchr("hlLqjzt", fmt[j]); ++j)
      if (fmt[j] != 'h') ++longs;
    if (j >= fmt.size()) {
      out += fmt.substr(i);
      break;
    }
    const char conv = fmt[j];
    char buf[512];
    if (conv == '%') {
      out.push_back('%');
    } else if (std::strchr("diouxXc", conv)) {
      const bool wide = longs > 0;
      const uint64_t v = next_arg(wide ? 8 : 4);
      if (conv == 'c') {
        std::snprintf(buf, sizeof buf, (spec + "c").c_str(), static_cast<int>(v));
      } else if (conv == 'd' || conv == 'i') {
        const long long sv = wide ? static_cast<long long>(v) : static_cast<int32_t>(v);
        std::snprintf(buf, sizeof buf, (spec + "ll" + conv).c_str(), sv);
      } else {
        const unsigned long long uv = wide ? v : static_cast<uint32_t>(v);
        std::snprintf(buf, sizeof buf, (spec + "ll" + conv).c_str(), uv);
      }
      out += buf;
    } else if (std::strchr("fFeEgGaA", conv)) {
      double d;
      const uint64_t v = next_arg(8);
      std::memcpy(&d, &v, 8);
      std::snprintf(buf, sizeof buf, (spec + conv).c_str(), d);
      out += buf;
    } else if (conv == 's') {
      const std::string s = device_string(w, b, lane, next_arg(8));
      std::snprintf(buf, sizeof buf, (spec + "s").c_str(), s.c_str());
      out += buf;
    } else if (conv == 'p') {
      std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(next_arg(8)));
      out += buf;
    } else {
      out += fmt.substr(i, j - i + 1);  // unknown: printed as written, as CUDA does
    }
    i = j;
  }
  return out;
}

}  // namespace gpusim::exec
