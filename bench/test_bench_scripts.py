"""The bench scripts that read measurements, on inputs whose answers are worked out by hand."""
import contextlib
import io
import os
import tempfile
import unittest

import launch_breakdown
import scaled_gpu_probe
import threads_ratio

# Two threads' samples as `perf script -F tid,time,ip,sym,dso` prints them (tids padded).
PERF = """\
  100    10.000000: 
\t  1000 gpusim::workload::fill (/x/gpusim)

  100    10.100000: 
\t  2000 gpusim::core::TickBatch::run_shared (/x/gpusim)
\t  2100 gpusim::core::Gpu::launch (/x/gpusim)

  100    10.200000: 
\t  3000 gpusim::memory::L2::read (/x/gpusim)
\t  3100 gpusim::memory::MemoryHierarchy::do_below (/x/gpusim)

  100    10.300000: 
\t  4000 gpusim::core::Sm::try_offer (/x/gpusim)

  101    10.250000: 
\t  5000 gpusim::core::TickBatch::serve (/x/gpusim)

  101    10.350000: 
\t  6000 gpusim::exec::Executor::execute (/x/gpusim)
\t  6100 gpusim::core::TickBatch::run_one (/x/gpusim)

  101    10.360000: 
\tffffffff81000130 entry_SYSCALL_64_after_hwframe ([kernel.kallsyms])

  100    10.400000: 
\t  7000 gpusim::core::TickBatch::serve (/x/gpusim)

  100    10.500000: 
\t  8000 gpusim::reference::compare (/x/gpusim)
"""


def run(main, args):
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        rc = main(args)
    return rc, out.getvalue()


class Scratch(unittest.TestCase):
    def write(self, text):
        f = tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False)
        f.write(text)
        f.close()
        self.addCleanup(os.unlink, f.name)
        return f.name


class LaunchBreakdown(Scratch):
    def test_counts_each_threads_samples_inside_the_launch_by_category(self):
        rc, out = run(launch_breakdown.main, [self.write(PERF)])
        self.assertEqual(rc, 0)
        lines = out.splitlines()
        # The launch: from 10.1 (the first TickBatch sample) to 10.4 (the last).
        self.assertEqual(lines[0], "launch_s,0.300")
        rows = {tuple(line.split(",")[:2]): line.split(",")[2:] for line in lines[2:]}
        # main (tid 100, the first sample's): run_shared on top, do_below below L2, try_offer,
        # serve on top; fill (10.0) and compare (10.5) lie outside the launch.
        self.assertEqual(rows[("main", "waiting")], ["2", "0.500"])
        self.assertEqual(rows[("main", "settle")], ["1", "0.250"])
        self.assertEqual(rows[("main", "SM work")], ["1", "0.250"])
        # The worker: serve on top, the executor under run_one, a system call.
        self.assertEqual(rows[("worker 101", "waiting")], ["1", "0.333"])
        self.assertEqual(rows[("worker 101", "SM work")], ["1", "0.333"])
        self.assertEqual(rows[("worker 101", "kernel")], ["1", "0.333"])
        self.assertEqual(len(rows), 6)

    def test_top_lists_the_main_threads_leaves_and_batch_steps(self):
        rc, out = run(launch_breakdown.main, ["--top", "2", self.write(PERF)])
        self.assertEqual(rc, 0)
        lines = out.splitlines()
        leaf = lines.index("main_leaf,category,samples")
        workers = lines.index("workers_leaf,category,samples")
        step = lines.index("main_step,samples")
        # main's four samples in the launch, one per leaf: ties in name order.
        self.assertEqual(lines[leaf + 1:workers], ["gpusim::core::Sm::try_offer,SM work,1",
                                                   "gpusim::core::TickBatch::run_shared,waiting,1"])
        # The worker's three, its system call's leaf without the kernel's address and dso.
        self.assertEqual(lines[workers + 1:step], ["entry_SYSCALL_64_after_hwframe,kernel,1",
                                                   "gpusim::core::TickBatch::serve,waiting,1"])
        # L2::read's and try_offer's chains hold no TickBatch frame; run_shared and serve one each.
        self.assertEqual(lines[step + 1:], ["(none),2", "gpusim::core::TickBatch::run_shared,1"])

    def test_top_quotes_a_name_with_commas(self):
        perf = ("  5    1.000000: \n\t  10 std::sort<a, b> (/x/gpusim)\n\t  20 gpusim::core::TickBatch::run_quantum (/x/gpusim)\n")
        rc, out = run(launch_breakdown.main, ["--top", "1", self.write(perf)])
        self.assertEqual(rc, 0)
        lines = out.splitlines()
        self.assertEqual(lines[lines.index("main_leaf,category,samples") + 1], '"std::sort<a, b>",SM work,1')
        self.assertEqual(lines[-1], "gpusim::core::TickBatch::run_quantum,1")

    def test_refuses_a_top_without_a_count(self):
        self.assertEqual(run(launch_breakdown.main, ["--top", self.write(PERF)])[0], 2)
        self.assertEqual(run(launch_breakdown.main, ["--top", "0", self.write(PERF)])[0], 2)

    def test_refuses_a_run_without_the_batch(self):
        rc, _ = run(launch_breakdown.main, [self.write("  7    1.000000: \n\t  10 main (/x/gpusim)\n")])
        self.assertEqual(rc, 2)
        self.assertEqual(run(launch_breakdown.main, ["/nonexistent/perf.txt"])[0], 2)


class ThreadsRatio(Scratch):
    HEADER = "date,host,cpu,cores,arch,workload,flags,build,threads,repeat,wall_s,identical_to_1\n"

    def ratios(self, rows, comments=""):
        """threads_ratio.py's output for a CSV of `rows` (after `comments`); it must succeed."""
        rc, out = run(threads_ratio.main, [self.write(comments + self.HEADER + "\n".join(rows) + "\n")])
        self.assertEqual(rc, 0)
        return out

    def test_pairs_each_repeat_and_skips_comment_lines(self):
        rows = ["d,h,c,16,hopper,vecadd,,B,1,1,3.0,yes", "d,h,c,16,hopper,vecadd,,B,2,1,2.0,yes",
                "d,h,c,16,hopper,vecadd,,B,1,2,4.0,yes", "d,h,c,16,hopper,vecadd,,B,2,2,1.6,yes",
                "d,h,c,16,hopper,vecadd,,B,1,3,2.0,yes", "d,h,c,16,hopper,vecadd,,B,2,3,1.0,yes"]
        out = self.ratios(rows, "# the machine\n# the command\n")
        # Medians: one thread 3.0 s, two 1.6 s; ratios by repeat 1.5, 2.5, 2.0: median 2.0.
        # Fastest: one thread 2.0 s (repeat 3), two 1.0 s (repeat 3): 2.0; not paired by repeat,
        # which the next case shows.
        self.assertIn(",vecadd,,B,1,3,3.000,,2.000,\n", out)
        self.assertIn(",vecadd,,B,2,3,1.600,2.00,1.000,2.00\n", out)

    def test_fastest_runs_need_not_share_a_repeat(self):
        rows = ["d,h,c,2,hopper,copy,,B,1,1,2.0,yes", "d,h,c,2,hopper,copy,,B,2,1,1.6,yes",
                "d,h,c,2,hopper,copy,,B,1,2,3.0,yes", "d,h,c,2,hopper,copy,,B,2,2,1.2,yes"]
        out = self.ratios(rows)
        # By repeat 2.0/1.6 = 1.25 and 3.0/1.2 = 2.5, median 1.875; the fastest runs, 2.0 s (repeat
        # 1) and 1.2 s (repeat 2): 1.67. Median walls 2.5 s and 1.4 s.
        self.assertIn(",copy,,B,2,2,1.400,1.88,1.200,1.67\n", out)

    def test_keeps_architectures_apart(self):
        rows = ["d,h,c,2,volta,stencil,,B,1,1,2.0,yes", "d,h,c,2,volta,stencil,,B,2,1,1.0,yes",
                "d,h,c,2,fermi,stencil,,B,1,1,3.0,yes", "d,h,c,2,fermi,stencil,,B,2,1,3.0,yes"]
        out = self.ratios(rows)
        self.assertIn(",volta,stencil,,B,2,1,1.000,2.00,1.000,2.00\n", out)
        self.assertIn(",fermi,stencil,,B,2,1,3.000,1.00,3.000,1.00\n", out)


class ScaledGpu(unittest.TestCase):
    BASE = {"memory.l2.line_bytes": 128, "memory.l2.associativity": 16, "memory.dram.bandwidth_gbs": 100,
            "block_scheduler.block_dispatch_interval": 1.5}

    def test_keeps_every_kth_sm_of_each_partition_and_scales_the_shared_parts(self):
        values = dict(self.BASE, **{
            "gpu.sm_count": 8, "memory.l2.partitions": 2, "memory.l2.sm_partitions": [0, 0, 1, 1, 0, 0, 1, 1],
            "memory.l2.sm_path_cycles": [1, 2, 3, 4, 5, 6, 7, 8], "block_scheduler.sm_order": [7, 6, 5, 4, 3, 2, 1, 0],
            "memory.l2.size_bytes": 65536, "memory.l2.slices": 6, "memory.dram.channels": 4})
        kept, sets = scaled_gpu_probe.scaled_overrides(values, 2)
        # Partition 0 holds SMs 0, 1, 4, 5 (keeps 0, 4); partition 1 holds 2, 3, 6, 7 (keeps 2, 6).
        self.assertEqual(kept, [0, 2, 4, 6])
        self.assertEqual(sets, [
            "gpu.sm_count=4", "memory.l2.sm_partitions=[0,1,0,1]", "memory.l2.sm_path_cycles=[1,3,5,7]",
            # 6, 4, 2, 0 dispatched in that order: renumbered 3, 2, 1, 0.
            "block_scheduler.sm_order=[3,2,1,0]",
            # Half of 64 KB, a whole number of 4 KB (128 B x 16 ways x 2 partitions).
            "memory.l2.size_bytes=32768", "memory.l2.slices=3", "memory.dram.channels=2",
            "memory.dram.bandwidth_gbs=50.0000", "block_scheduler.block_dispatch_interval=3.0000"])

    def test_expands_the_abbreviated_per_sm_lists_and_rounds_the_counts(self):
        values = dict(self.BASE, **{
            "gpu.sm_count": 6, "memory.l2.partitions": 1, "memory.l2.sm_partitions": "halves",
            "memory.l2.sm_path_cycles": "none", "block_scheduler.sm_order": "ascending",
            "memory.l2.size_bytes": 24576, "memory.l2.slices": 5, "memory.dram.channels": 3})
        kept, sets = scaled_gpu_probe.scaled_overrides(values, 4)
        self.assertEqual(kept, [0, 4])
        # 2 of 6 SMs: 24 KB x 2 / 6 = 8 KB (four 2 KB sets); 5 x 2 / 6 = 1.67 slices -> 2; 3 x 2 / 6 = 1 channel.
        self.assertIn("memory.l2.size_bytes=8192", sets)
        self.assertIn("memory.l2.slices=2", sets)
        self.assertIn("memory.dram.channels=1", sets)
        self.assertIn("block_scheduler.sm_order=[0,1]", sets)
        self.assertIn("memory.l2.sm_path_cycles=[0,0]", sets)
        self.assertIn("block_scheduler.block_dispatch_interval=4.5000", sets)


if __name__ == "__main__":
    unittest.main()
