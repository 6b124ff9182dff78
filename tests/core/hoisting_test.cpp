// ptxas's loop unrolling as the SM emulates it (core/hoist_queue.hpp, sm_hoist.cpp), on
// hand-written kernels whose cycles can be worked out by hand: which loops unroll, what a warp
// sets aside and when it must stop (the load window, parameters, clock reads).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "arch/arch_loader.hpp"
#include "core/hoist_queue.hpp"
#include "core/instruction_class.hpp"
#include "frontend/ptx_parser.hpp"
#include "core/timed_kernel.hpp"
#include "test_paths.hpp"

namespace gpusim::core {
namespace {

// 16 trips of 4 independent loads, then `between`, then an add of each loaded value.
std::string window_trips(const std::string& between) {
  std::string trip = "$L_w:\n";
  for (int i = 0; i < 4; ++i) trip += "ld.global.f32 %f" + std::to_string(10 + i) + ", [%rd3];\n";
  trip += between;
  for (int i = 0; i < 4; ++i)
    trip += "add.f32 %f" + std::to_string(1 + i) + ", %f" + std::to_string(1 + i) + ", %f" + std::to_string(10 + i) + ";\n";
  return "mov.u32 %r20, 0;\n" + trip + "add.s32 %r20, %r20, 1;\nsetp.lt.s32 %p1, %r20, 16;\n@%p1 bra $L_w;\n";
}

// A clock read waits for what the warp set aside: around a loop of 20 dependent loads (global
// memory answering after 500 cycles), the warp could run the loop's counting and branches ahead
// of its loads (as it does to emulate ptxas's hoisting), but %clock64 must read once the 20th
// load has issued, as on hardware: 19 round trips of 500 cycles, plus a few issue cycles a hop
// (run ahead, it read three loads early: 8234 cycles).
TEST(Timing, ClockReadsWaitForLoadsSetAside) {
  const std::string body =
      "mov.u32 %r20, 0;\nmov.u32 %r21, 0;\nmov.u64 %rd4, %clock64;\n"
      "HOP:\nmul.wide.u32 %rd5, %r20, 4;\nadd.s64 %rd5, %rd1, %rd5;\nld.global.cg.u32 %r20, [%rd5];\n"
      "add.u32 %r21, %r21, 1;\nsetp.lt.u32 %p1, %r21, 20;\n@%p1 bra HOP;\n"
      "mov.u64 %rd6, %clock64;\nsub.s64 %rd6, %rd6, %rd4;\ncvt.u32.u64 %r26, %rd6;\nadd.u32 %r26, %r26, %r20;\n"
      "mov.b32 %f44, %r26;\n";
  const uint32_t elapsed = simulate(kernel(body), "hopper", {"memory.dram.latency=500"}, 32, 1).out[0];
  EXPECT_GE(elapsed, 19u * 500u);
  EXPECT_LE(elapsed, 19u * 500u + 20u * 16u);
}

// Which loops ptxas unrolls (validate/sass_structure.py): the backward branch of a small,
// straight, counted loop carries scheduling.ptxas_unroll trips; one marked nounroll, one with
// a barrier, and one stepped by a register (a grid-stride loop) carry 1.
TEST(Timing, PtxasUnrollsSmallCountedLoopsOnly) {
  const auto trips = [](const std::string& head, const std::string& extra, const std::string& step) {
    const std::string body = "mov.u32 %r20, 0;\nmov.f32 %f1, 0f00000000;\n$L_trip:\n" + head +
                             "ld.global.f32 %f2, [%rd3];\nadd.f32 %f1, %f1, %f2;\n" + extra + "add.s32 %r20, %r20, " +
                             step + ";\nsetp.lt.s32 %p1, %r20, 16;\n@%p1 bra $L_trip;\nmov.f32 %f44, %f1;\n";
    const kernel::Module m = frontend::parse_ptx(kernel(body), "unroll.ptx");
    const arch::ArchConfig arch = arch::load_arch_config(test::config_path("hopper"), {});
    EXPECT_EQ(arch.scheduling.ptxas_unroll, 4);
    const ClassifierConfig config{arch.units, arch.latencies, arch.warp_size, arch.scheduling.warp_schedulers_per_sm,
                                  false, arch.instruction_classes, arch.scheduling.ptxas_unroll};
    const std::vector<InstructionTiming> t = classify_program(m.kernels[0], config);
    int found = 0;
    for (size_t pc = 0; pc < t.size(); ++pc)
      if (m.kernels[0].code[pc].op == kernel::Opcode::Bra && m.kernels[0].code[pc].src[0].imm < static_cast<int64_t>(pc))
        found = t[pc].unroll_trips;
    return found;
  };
  EXPECT_EQ(trips("", "", "1"), 4);
  EXPECT_EQ(trips(".pragma \"nounroll\";\n", "", "1"), 1);
  EXPECT_EQ(trips("", "bar.sync 0;\n", "1"), 1);
  EXPECT_EQ(trips("", "", "%r3"), 1);
}

// A set-aside instruction keeps its own addresses until it issues, wherever the queue moves it:
// 16 trips of a shared load whose address waits for a load from the L2 (all lanes read word 0, so
// each access is one broadcast pass), set aside trip after trip with ptxas_unroll 4.
TEST(Timing, SetAsideLoadsKeepTheirAddresses) {
  const std::string body =
      "mov.u32 %r20, 0;\nmov.f32 %f1, 0f00000000;\n$L_g:\nld.global.cg.u32 %r21, [%rd1];\nshl.b32 %r22, %r21, 2;\n"
      "ld.shared.f32 %f2, [%r22];\nadd.f32 %f1, %f1, %f2;\nadd.s32 %r20, %r20, 1;\nsetp.lt.s32 %p1, %r20, 16;\n"
      "@%p1 bra $L_g;\nmov.f32 %f44, %f1;\n";
  const SimRun r = simulate(kernel(body), "hopper", {"memory.model=hierarchy", "scheduling.ptxas_unroll=4"}, 32, 1, 1024);
  EXPECT_EQ(r.total.shared_requests, 16u);
  EXPECT_EQ(r.total.shared_passes, 16u);
}

// The queue keeps a memory access's lane addresses apart from its ops, for those ops alone: each
// op finds its own lanes after the queue has grown past many more (its storage moved), and a
// queue emptied and filled again starts its lanes afresh.
TEST(HoistQueue, EachAccessFindsItsOwnLaneAddresses) {
  HoistQueue q;
  std::array<uint64_t, 32> run{};
  const auto lanes = [](uint64_t base) {
    std::array<uint64_t, 32> a{};
    for (uint64_t l = 0; l < a.size(); ++l) a[l] = base + 4 * l;
    return a;
  };
  // Ops 0, 3, 6, ... access memory at 1000 x their index; the others are arithmetic.
  for (uint64_t i = 0; i < 60; ++i) {
    DeferredOp& op = q.push();
    op.ticket = q.next_ticket();
    if (i % 3 == 0) q.keep_addresses(op, lanes(1000 * i).data());
  }
  for (uint64_t i = 0; i < 60; ++i) {
    const DeferredOp& op = q.front();
    EXPECT_EQ(op.ticket, HoistQueue::kFirstTicket + i);
    if (i % 3 == 0) {
      const uint64_t* a = q.addresses(op, run.data());
      EXPECT_EQ(a[0], 1000 * i);
      EXPECT_EQ(a[31], 1000 * i + 124);
    }
    q.pop();
  }
  EXPECT_TRUE(q.empty());
  DeferredOp& again = q.push();
  q.keep_addresses(again, lanes(7).data());
  EXPECT_EQ(again.lanes, 0u);  // its lanes the first again
  EXPECT_EQ(q.addresses(again, run.data())[1], 11u);
}

// Lanes that are one run (lane l at lane 0's address + l x the access's bytes) keep lane 0's
// alone and come back whole, written into the caller's buffer; lanes one address off a run,
// or a run of another step, are kept as they are. Every lane is compared, so that what comes
// back is what was kept, byte for byte.
TEST(HoistQueue, OneRunOfLanesComesBackWhole) {
  HoistQueue q;
  std::array<uint64_t, 32> run{};
  const auto access = [&](uint64_t base, uint64_t step, uint32_t bytes) {
    std::array<uint64_t, 32> a{};
    for (uint64_t l = 0; l < a.size(); ++l) a[l] = base + step * l;
    DeferredOp& op = q.push();
    op.step.access_bytes = bytes;
    q.keep_addresses(op, a.data());
    return a;
  };
  const std::array<uint64_t, 32> coalesced = access(0x1000, 4, 4);  // one run
  const std::array<uint64_t, 32> wide = access(0x2000, 8, 8);       // one run of 8-byte lanes
  std::array<uint64_t, 32> off = wide;
  off[17] += 1;  // a run but for lane 17
  DeferredOp& broken = q.push();
  broken.step.access_bytes = 8;
  q.keep_addresses(broken, off.data());
  EXPECT_EQ(broken.lanes, 0u);  // the first kept whole: the runs before it took no room
  const std::array<uint64_t, 32> strided = access(0x3000, 8, 4);    // a step of 8 for 4 bytes a lane
  const std::array<uint64_t, 32> broadcast = access(0x4000, 0, 0);  // every lane one word
  for (const auto& want : {coalesced, wide, off, strided, broadcast}) {
    const uint64_t* got = q.addresses(q.front(), run.data());
    for (size_t l = 0; l < want.size(); ++l) ASSERT_EQ(got[l], want[l]) << "lane " << l;
    q.pop();
  }
  EXPECT_TRUE(q.empty());
}

// ptxas schedules only so many loads ahead of the first use of one (validate/sass_structure.py).
// 16 trips of 4 independent loads, each summed, 4 trips unrolled: a warp waits out one memory
// latency (686 cycles on Hopper's average SM, every SM alike here) per 16 loads. With a window of 8 loads, the other 8 of each 16
// leave only once the first add has issued: one latency more per 16, less the few cycles the
// held loads would have taken to issue anyway (at most 64). A window wider than 16: no change.
// Branch and stall counts off: a few cycles' shift decides whether a returned load's add issues
// between two trips' loads, which opens a new window.
TEST(Timing, HoistingStopsAtPtxasLoadWindow) {
  const std::string body = window_trips("");
  const auto run = [&](int window) {
    return simulate(kernel(body), "hopper",
                    {"scheduling.ptxas_hoist_loads=" + std::to_string(window), "memory.l2.sm_path_cycles=none",
                     "latencies.taken_branch=0", "scheduling.static_stalls=false"},
                    32, 1).stats.cycles;
  };
  const uint64_t unlimited = run(0);
  EXPECT_EQ(run(17), unlimited);
  const uint64_t extra = run(8) - unlimited;
  EXPECT_GE(extra, 4u * (686 - 64));
  EXPECT_LE(extra, 4u * 686);
}

// latencies.taken_branch (validate/probes/loop_cost.py): a taken branch's target issues that
// many cycles after it. One warp, 64 trips of a counted loop: the counter's add (4 cycles)
// feeds the test (4), which feeds the branch, so a trip takes 4 + 4 + 1 = 9 cycles; with 20
// for the taken branch, 4 + 4 + 20 = 28: 19 more a trip. ptxas unrolls the loop 4 times unless
// told not to: one branch per 4 trips, 19 more per 4 trips.
TEST(Timing, ATakenBranchDelaysItsTargetOncePerUnrolledBody) {
  const auto run = [](const std::string& pragma, int taken) {
    const std::string body = "mov.u32 %r20, 0;\n$L_b:\n" + pragma +
                             "add.s32 %r20, %r20, 1;\nsetp.lt.s32 %p1, %r20, 64;\n@%p1 bra $L_b;\nmov.b32 %f44, %r20;\n";
    return static_cast<int64_t>(
        simulate(kernel(body), "hopper", {"latencies.taken_branch=" + std::to_string(taken)}, 32, 1).stats.cycles);
  };
  const std::string nounroll = ".pragma \"nounroll\";\n";
  EXPECT_EQ(run(nounroll, 20) - run(nounroll, 0), 63 * 19);  // the 64th test falls through
  EXPECT_EQ(run("", 20) - run("", 0), 15 * 19);               // trips 4, 8, .. 60 end a body; 64 falls through
}

// A parameter is an operand in SASS, not a loaded value: an instruction that waits for an
// ld.param's result must not open a new load window. The trips of HoistingStopsAtPtxasLoadWindow
// with a parameter read and used in each: a window of 8 must still cost at least one more
// memory latency (686 cycles, less up to 64 of issue) than no window. When a parameter's use
// opened the window it cost nothing (9417 cycles either way), and whether an instruction
// happened to wait for a parameter depended on shared_memory.latency: micro_lines_in_flight #9
// took 212627 cycles at 25 and 376772 at 24.
TEST(Timing, AParameterUseOpensNoLoadWindow) {
  const std::string body = window_trips("ld.param.u64 %rd4, [out];\nadd.s64 %rd5, %rd4, %rd2;\n");
  const auto run = [&](int window, int shared_latency) {
    return simulate(kernel(body), "hopper",
                    {"scheduling.ptxas_hoist_loads=" + std::to_string(window),
                     "shared_memory.latency=" + std::to_string(shared_latency), "memory.l2.sm_path_cycles=none"},
                    32, 1).stats.cycles;
  };
  const uint64_t unlimited = run(0, 25);
  const uint64_t extra = run(8, 25) - unlimited;
  EXPECT_GE(extra, 686u - 64);
  EXPECT_LE(extra, 4u * 686);
  // A cycle more or less for the parameter moves the run by about that, not by a latency.
  const uint64_t at24 = run(8, 24), at25 = run(8, 25);
  EXPECT_LE(std::max(at24, at25) - std::min(at24, at25), 16u * 2);
}

}  // namespace
}  // namespace gpusim::core
