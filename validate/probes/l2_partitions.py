# Which L2 partition is near which SM, and what a far hit costs (issue 13: L2 partitions).
# One warp on SM `reader` chases a random ring of 128-byte lines through the L2 (ld.global.cg),
# timing every hop with clock64, right after one warp on SM `warmer` read the ring once. Lines
# the warmer's reads left in the reader's near partition hit near; the rest go to the far one.
# A reader on the warmer's side of the chip sees only near hits; one on the other side sees
# a share of far hits. The reader's second chase shows whether far hits leave a near copy.
# Usage (on the device): python3 validate/probes/l2_partitions.py reads OUT.csv HIST.csv LINES.csv
#                        python3 validate/probes/l2_partitions.py stores OUT.csv
import datetime
import subprocess
import sys

import cupy as cp
import numpy as np

SOURCE = r"""
__device__ unsigned smid() { unsigned s; asm volatile("mov.u32 %0, %%smid;" : "=r"(s)); return s; }

// Only the first block that lands on SM `target` runs `hops` dependent loads over the ring,
// recording each hop's cycles (lat may be null), and their total in out[0].
extern "C" __global__ void chase_on_sm(const unsigned* ring, unsigned target, int hops,
                                       unsigned* lat, unsigned long long* out, int* claimed) {
  if (smid() != target || threadIdx.x != 0 || atomicCAS(claimed, 0, 1) != 0) return;
  __shared__ volatile unsigned seen;
  unsigned p = 0;
  const long long start = clock64();
  for (int i = 0; i < hops; ++i) {
    const long long t0 = clock64();
    p = __ldcg(ring + p);
    seen = p;  // the store waits for p, so the clock is read after the load is back
    if (lat) lat[i] = (unsigned)(clock64() - t0);
  }
  out[0] = (unsigned long long)(clock64() - start);
  out[1] = p;
}

// Only the first block on SM `target` rewrites the ring's words (from `values`, the same words)
// with one warp: a line's words in one store.
extern "C" __global__ void rewrite_on_sm(unsigned* ring, const unsigned* values, unsigned target, int lines,
                                         int* claimed) {
  __shared__ int mine;
  if (threadIdx.x == 0) mine = smid() == target && atomicCAS(claimed, 0, 1) == 0;
  __syncthreads();
  if (!mine) return;
  for (int l = 0; l < lines; ++l) ring[l * 32 + threadIdx.x] = values[l * 32 + threadIdx.x];
}

// A 256 MB read by every SM: replaces what the L2 holds.
extern "C" __global__ void flush(const float* a, float* sink, long long n) {
  float s = 0;
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
    s += __ldcg(a + i);
  if (s == 1.2345f) sink[0] = s;
}
"""

LINES = 8192  # a 1 MB ring: far below either partition's size
NULL = np.uint64(0)

class Probe:
    """The kernels and buffers, on the current GPU."""

    def __init__(self):
        self.props = cp.cuda.runtime.getDeviceProperties(0)
        arch = f"--gpu-architecture=sm_{self.props['major']}{self.props['minor']}"
        module = cp.RawModule(code=SOURCE, options=(arch,))
        self.chase = module.get_function("chase_on_sm")
        self.rewrite = module.get_function("rewrite_on_sm")
        self.flush_kernel = module.get_function("flush")
        self.sms = self.props["multiProcessorCount"]
        self.flush_buf = cp.zeros(64 << 20, dtype=cp.float32)
        self.sink = cp.zeros(4, dtype=cp.float32)
        self.order = np.random.default_rng(13).permutation(LINES)
        ring_host = np.zeros(LINES * 32, dtype=np.uint32)
        ring_host[self.order * 32] = np.roll(self.order, -1) * 32  # one word per line: the next line's first word
        self.ring = cp.asarray(ring_host)
        self.values = cp.asarray(ring_host)
        self.out = cp.zeros(2, dtype=cp.uint64)
        self.claimed = cp.zeros(1, dtype=cp.int32)
        self.lat = cp.zeros(LINES, dtype=cp.uint32)

    def on_sm(self, sm, record=False):
        """One chase from SM `sm`: cycles per hop (each hop's in self.lat when recorded)."""
        self.claimed.fill(0)
        self.chase((self.sms * 4,), (32,), (self.ring, np.uint32(sm), np.int32(LINES), self.lat if record else NULL,
                                            self.out, self.claimed))
        cp.cuda.runtime.deviceSynchronize()
        return int(self.out[0]) / LINES

    def hops(self):
        return self.lat.get().astype(np.int64)

    def rewrite_from(self, sm):
        self.claimed.fill(0)
        self.rewrite((self.sms * 4,), (32,), (self.ring, self.values, np.uint32(sm), np.int32(LINES), self.claimed))
        cp.cuda.runtime.deviceSynchronize()

    def flush(self):
        self.flush_kernel((self.sms * 8,), (256,), (self.flush_buf, self.sink, np.int64(self.flush_buf.size)))

    def after_warmer(self, warmer, reader=0):
        """The L2 emptied, SM `warmer` reads the ring, SM `reader` chases it: its hops' cycles."""
        self.flush()
        self.on_sm(warmer)
        self.on_sm(reader, record=True)
        return self.hops()


def partition_scan(reader=0):
    """For calibrate: each SM's share of far hops for SM `reader` after that SM read the ring,
    and the near and far hop (median cycles). A hop is far when it takes 60 cycles more than
    the reader's own near median."""
    probe = Probe()
    near_hops = probe.after_warmer(reader, reader)
    near = float(np.median(near_hops))
    shares, far_hops = [], []
    for warmer in range(probe.sms):
        hops = probe.after_warmer(warmer, reader)
        far = hops[hops > near + 60]
        shares.append(round(float(len(far)) / len(hops), 3))
        far_hops.extend(far.tolist())
    return {"l2_far_share_by_sm": shares, "l2_near_hop_cycles": near,
            "l2_far_hop_cycles": float(np.median(far_hops)) if far_hops else None}


def stores(probe, path):
    """Where stores leave lines: SM `writer` rewrites the ring, then SM 0 chases it (first and
    second lap); `after_read` has SM 0 read the ring once before the rewrite."""
    rows = []
    side = []  # this chip's SMs on SM 0's side: the SM-to-partition map differs from chip to chip
    for warmer in range(probe.sms):
        probe.flush()
        probe.on_sm(warmer)
        probe.on_sm(0, record=True)
        side.append(float(np.mean(probe.hops() > 360)) < 0.25)
    same = next(sm for sm in range(1, probe.sms) if side[sm])
    other = next(sm for sm in range(probe.sms) if not side[sm])
    print("same side", [sm for sm in range(probe.sms) if side[sm]], flush=True)
    for writer in (0, same, other):
        for after_read in (False, True):
            firsts, seconds, far = [], [], []
            for _ in range(3):
                probe.flush()
                if after_read:
                    probe.on_sm(0)
                probe.rewrite_from(writer)
                firsts.append(probe.on_sm(0, record=True))
                far.append(float(np.mean(probe.hops() > 360)))
                seconds.append(probe.on_sm(0))
            rows.append((writer, int(after_read), np.median(firsts), np.median(seconds), np.median(far)))
            print(rows[-1], flush=True)
    with open(path, "w") as f:
        f.write(header(probe, "stores"))
        f.write(f"# SMs on SM 0's side on this chip: {' '.join(str(sm) for sm in range(probe.sms) if side[sm])}\n")
        f.write("writer_sm,reader_read_first,first_cycles_per_hop,second_cycles_per_hop,share_over_360\n")
        for w, a, x, y, z in rows:
            f.write(f"{w},{a},{x:.1f},{y:.1f},{z:.3f}\n")


def header(probe, mode):
    driver = subprocess.run(["nvidia-smi", "--query-gpu=driver_version,clocks.sm", "--format=csv,noheader"],
                            capture_output=True, text=True).stdout.strip()
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    return (f"# {probe.props['name'].decode()}, driver and SM clock after the run: {driver}; {stamp}\n"
            f"# command: python3 validate/probes/l2_partitions.py {mode} (1 MB ring, {LINES} hops, median of 3; "
            f"256 MB read before each)\n")


def reads(probe, out_path, hist_path, lines_path):
    reader = 0
    rows, per_warmer = [], {}
    for warmer in range(probe.sms):
        firsts, seconds, far = [], [], []
        for _ in range(3):
            probe.flush()
            probe.on_sm(warmer)
            firsts.append(probe.on_sm(reader, record=True))
            hops = probe.hops()
            if len(firsts) == 1:
                per_warmer[warmer] = hops
            far.append(float(np.mean(hops > 360)))
            seconds.append(probe.on_sm(reader))
        rows.append((reader, warmer, float(np.median(firsts)), float(np.median(seconds)), float(np.median(far))))
        print(rows[-1], flush=True)
    # cold: the reader's own first chase from DRAM, then again
    colds = []
    for _ in range(3):
        probe.flush()
        colds.append((probe.on_sm(reader), probe.on_sm(reader)))
    c1, c2 = np.median([c[0] for c in colds]), np.median([c[1] for c in colds])
    head = header(probe, "reads") + f"# cold: reader's first chase from DRAM {c1:.1f} cycles/hop, its second {c2:.1f}\n"
    with open(out_path, "w") as f:
        f.write(head)
        f.write("reader_sm,warmer_sm,first_cycles_per_hop,second_cycles_per_hop,share_over_360\n")
        for r, w, a, b, s in rows:
            f.write(f"{r},{w},{a:.1f},{b:.1f},{s:.3f}\n")
    with open(hist_path, "w") as f:
        f.write(head)
        f.write("warmer_sm,cycles,hops\n")
        for w in sorted(per_warmer):
            values, counts = np.unique(per_warmer[w], return_counts=True)
            for c, n in zip(values, counts):
                f.write(f"{w},{c},{n}\n")
    far_warmer = max(rows, key=lambda r: r[4])[1]
    with open(lines_path, "w") as f:  # per line (by address) after the farthest warmer: who homes it
        f.write(head)
        f.write(f"# warmer SM {far_warmer}\nline,cycles\n")
        hops = per_warmer[far_warmer]
        # hop i reads line 0's i-th successor on the ring
        visited = np.roll(probe.order, -int(np.where(probe.order == 0)[0][0]))
        for i in np.argsort(visited):
            f.write(f"{visited[i]},{hops[i]}\n")


if __name__ == "__main__":
    if sys.argv[1] == "reads":
        reads(Probe(), *sys.argv[2:5])
    else:
        stores(Probe(), sys.argv[2])
