// bench/scaled_gpu_probe.py's case of a working set every block shares: each thread reads
// `per_thread` entries of one table at scattered places, so all blocks reuse the whole table.
extern "C" __global__ void shared_table(const float* table, float* out, unsigned table_n, unsigned n,
                                        unsigned per_thread) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float sum = 0.0f;
  unsigned at = i * 2654435761u;
  for (unsigned k = 0; k < per_thread; ++k) {
    sum += table[(at >> 7) % table_n];
    at = at * 1664525u + 1013904223u;
  }
  out[i] = sum;
}
