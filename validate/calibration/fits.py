"""What calibrate fits, in order, and on which microbenchmark launches (workloads/micro/).

Each fit names one parameter, the launches whose measured cycles it must reproduce, what
those launches isolate, and its search: a range (as multiples of the base file's value) and
resolution for a number (1 wherever the parameter is declared an integer), or the candidates,
as YAML text, for a structural choice. Fits run in this order because later microbenchmarks
include what earlier ones measured (every launch pays the launch cost; a DRAM chase pays the
L2's latency on its way); the second pass (fit.py) refits each once the others have moved.
"""
import collections

Fit = collections.namedtuple("Fit", "param targets measures kind lo hi step choices")


def number(param, targets, measures, lo=0.25, hi=4.0, step=1):
    return Fit(param, targets, measures, "number", lo, hi, step, None)


def choice(param, targets, measures, choices):
    return Fit(param, targets, measures, "choice", None, None, None, choices)


FITS = [
    number("block_scheduler.kernel_launch_cycles", [("micro_empty", 1)],
           "one empty block: the cost of a launch from start to end event"),
    number("block_scheduler.block_dispatch_interval", [("micro_empty_blocks", 1)],
           "67584 empty blocks: the GPU-wide block dispatch rate", lo=0.1, hi=10, step=0.01),
    number("block_scheduler.block_release_cycles", [("micro_block_turnover", k) for k in (2, 3, 4)] +
           [("micro_block_sizes", 3)],
           "short 1024-thread blocks (two per SM) loading, copying, storing one word a thread, and empty: how soon "
           "an SM starts its next block after one ends"),
    number("latencies.fp32", [("micro_fp32_chain", 1)], "one warp, dependent FP32 multiply-adds"),
    number("latencies.int32", [("micro_int_chain", 1)], "one warp, dependent integer multiply-adds"),
    number("latencies.fp64", [("micro_fp64_chain", 1)], "one warp, dependent FP64 multiply-adds"),
    number("latencies.sfu", [("micro_sfu_chain", 1)], "one warp, dependent ex2.approx (then an FP32 multiply)"),
    number("latencies.barrier", [("micro_sync_32", 1)], "1000 __syncthreads of one warp"),
    number("latencies.barrier_per_warp", [("micro_sync_1024", 1)], "1000 __syncthreads of 32 warps",
           lo=0.0, hi=8, step=0.05),
    number("latencies.int_divide", [("micro_int_rem", 1)], "one warp, dependent 32-bit remainders by a run-time divisor"),
    number("latencies.int_divide_slots", [("micro_int_rem", 3)], "64 warps per SM of 32-bit remainders: their issue cost"),
    number("latencies.int_divide_reciprocal", [("micro_int_rem_varying", 1)],
           "one warp, dependent remainders by a divisor the loop changes: the reciprocal's latency"),
    number("latencies.int_divide_reciprocal_slots", [("micro_int_rem_varying", 2)],
           "64 warps per SM of those remainders: the reciprocal's issue cost"),
    number("shared_memory.latency", [("micro_shared_chase", 1)], "one thread chasing indices through shared memory"),
    number("shared_memory.replay_cycles", [("micro_shared_conflicts", k) for k in (2, 3, 4, 5)],
           "a shared chase with 2, 4, 8 and 32 lanes in one bank", lo=0.25, hi=4),
    choice("shared_memory.atomics_serialise_same_word", [("micro_atomics_shared", k) for k in (1, 2, 3)],
           "shared atomics: 32 lanes on one word, on 32 words in 32 banks, on 32 words in one bank", ["false", "true"]),
    number("memory.l2.read_request_cycles", [("micro_scattered_l2", 1), ("micro_scattered_l2", 2)],
           "every SM's 32-line requests served by the L2: a line request's time in its slice (one SM alone "
           "sends a line a cycle: validate/probes/miss_queue.py)", lo=0.1, hi=4, step=0.01),
    number("memory.l1.store_sector_cycles", [("micro_store_path", 1), ("micro_store_path", 2)],
           "one SM storing one word per sector into 32 lines, and into 4 sectors of 8 lines, per request: its "
           "store data path", lo=0.25, hi=4, step=0.05),
    number("memory.l2.latency", [("micro_l2_chase", 2)], "one thread chasing a 4 MB ring in the L2"),
    number("memory.dram.latency", [("micro_dram_chase", 2)], "one thread chasing a 64 MB ring in DRAM"),
    choice("memory.l2.fetch_bytes", [("micro_scattered_read", 3), ("micro_scattered_read", 5)],
           "the same 32-byte sectors in 8 and in 32 lines from DRAM: DRAM's access granularity", ["32", "64", "128"]),
    choice("memory.l2.partial_write_reads", [("micro_scattered_write", k) for k in (3, 4, 5, 6)],
           "4-byte stores, one per sector, into 8 and 32 lines: does a partial sector read DRAM first", ["false", "true"]),
    number("memory.l2.slices", [("micro_l2_read_bandwidth", 2), ("micro_l2_read_bandwidth", 4)],
           "every SM reading an L2-resident array past the L1: the L2's sector rate"),
    number("memory.l2.fill_cycles", [("micro_tile_cold_copy", 1), ("micro_tile_cold_run_copy", 1)],
           "every SM copying 16 MB from DRAM into L2-held lines, in 32x32 tiles and in 4 KB runs: a DRAM fill's time "
           "in its slice, which the writes share", lo=0.25, hi=4, step=0.05),
    number("memory.l2.partial_write_cycles", [("micro_store_path", 3), ("micro_store_path", 4)],
           "every SM storing one word per sector into 32 lines, and into 4 sectors of 8 lines, per request: "
           "a partial sector's merge in its slice", lo=0.25, hi=4, step=0.05),
    number("memory.l2.write_request_cycles", [("micro_store_path", 3), ("micro_store_path", 4)],
           "the same: a line's write request at its slice", lo=0.25, hi=4, step=0.05),
    number("memory.dram.bandwidth_gbs", [("micro_dram_bandwidth", 1)], "a 64 MB copy by every SM: DRAM's sustained rate"),
    number("memory.l2.atomic_cycles", [("micro_atomics_global", 1)], "u32 atomicAdd by every thread on one word",
           lo=0.1, hi=10, step=0.01),
    number("memory.l2.atomic_float_cycles", [("micro_atomics_global", 2)], "f32 atomicAdd by every thread on one word",
           lo=0.1, hi=10, step=0.01),
    choice("memory.l2.atomic_unit_shared_line_bits", [("micro_atomic_units", k) for k in (1, 2, 3, 4)],
           "atomics on line 0 of a 1 KB block, and on lines 0 and 1, 0 and 2, 0 and 4: which lines share an atomic unit",
           ["0", "1", "4", "5"]),
]

# Launches that no fit uses but the report shows, so the written file is checked on them too.
CHECKS = [("micro_sync_256", 1), ("micro_dram_read", 1), ("micro_l2_copy", 1),
          ("micro_l2_partial_stores", 3),
          ("micro_l1_lines", 3), ("micro_tile_cold_move", 1), ("micro_tile_cold_copy_sync", 1), ("micro_tile_access", 1),
          ("micro_tile_access", 3), ("micro_shared_bandwidth", 4), ("micro_shared_store_conflicts", 4)]


def workloads_needed(fits):
    """The microbenchmark workloads the fits and the checks measure, plus block placement."""
    names = {w for f in fits for w, _ in f.targets} | {w for w, _ in CHECKS} | {"micro_block_placement"}
    return sorted(names)
