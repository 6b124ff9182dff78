// Sorting, sparse and graph kernels as users write them: global bitonic steps, a bitonic
// sort of each block in shared memory, a radix digit count; a CSR matrix generator, SpMV in
// CSR (a thread per row, a warp per row) and ELL, BFS levels and a PageRank pull step.

extern "C" __global__ void bitonic_step(unsigned* data, int j, int k) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x, partner = i ^ j;
  if (partner <= i) return;
  const unsigned a = data[i], b = data[partner];
  if (((i & k) == 0) == (a > b)) {
    data[i] = b;
    data[partner] = a;
  }
}

extern "C" __global__ void bitonic_sort_block(unsigned* data) {
  __shared__ unsigned s[1024];
  const unsigned t = threadIdx.x, base = blockIdx.x * 1024;
  s[t] = data[base + t];
  s[t + 512] = data[base + t + 512];
  __syncthreads();
  for (unsigned k = 2; k <= 1024; k *= 2)
    for (unsigned j = k / 2; j > 0; j /= 2) {
      const unsigned i = 2 * t - (t & (j - 1)), p = i + j;  // the lower element of this thread's pair
      const bool up = (i & k) == 0;
      const unsigned a = s[i], b = s[p];
      if ((a > b) == up) {
        s[i] = b;
        s[p] = a;
      }
      __syncthreads();
    }
  data[base + t] = s[t];
  data[base + t + 512] = s[t + 512];
}

// Counts of one 4-bit digit per block (the first pass of a radix sort).
extern "C" __global__ void radix_digit_count(const unsigned* keys, unsigned* counts, int n, int shift) {
  __shared__ unsigned local[16];
  if (threadIdx.x < 16) local[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&local[(keys[i] >> shift) & 15], 1u);
  __syncthreads();
  if (threadIdx.x < 16) counts[blockIdx.x * 16 + threadIdx.x] = local[threadIdx.x];
}

__device__ unsigned hash32(unsigned x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  return x ^ (x >> 16);
}

// Row r has 1 + r % 32 entries (so a warp's rows range from 1 to 32), at hashed columns;
// the CSR row pointers have a closed form. Also writes the same matrix as ELL (column-major,
// 32 slots per row, padded with column -1).
extern "C" __global__ void make_matrix(int* row_ptr, int* cols, float* vals, int* ell_cols, float* ell_vals, int rows) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const int m = r % 32, start = (r / 32) * 528 + m * (m + 1) / 2, len = m + 1;
  row_ptr[r] = start;
  if (r == rows - 1) row_ptr[rows] = start + len;
  for (int k = 0; k < 32; ++k) {
    const int c = k < len ? static_cast<int>(hash32(r * 32 + k) % rows) : -1;
    const float v = k < len ? 1.0f / (1 + k) : 0.0f;
    if (k < len) {
      cols[start + k] = c;
      vals[start + k] = v;
    }
    ell_cols[k * rows + r] = c;
    ell_vals[k * rows + r] = v;
  }
}

extern "C" __global__ void spmv_csr_scalar(const int* row_ptr, const int* cols, const float* vals, const float* x, float* y, int rows) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float sum = 0.0f;
  for (int k = row_ptr[r]; k < row_ptr[r + 1]; ++k) sum += vals[k] * x[cols[k]];
  y[r] = sum;
}

extern "C" __global__ void spmv_csr_vector(const int* row_ptr, const int* cols, const float* vals, const float* x, float* y, int rows) {
  const int r = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x & 31;
  if (r >= rows) return;
  float sum = 0.0f;
  for (int k = row_ptr[r] + lane; k < row_ptr[r + 1]; k += 32) sum += vals[k] * x[cols[k]];
  for (int o = 16; o > 0; o /= 2) sum += __shfl_down_sync(0xffffffffu, sum, o);
  if (lane == 0) y[r] = sum;
}

extern "C" __global__ void spmv_ell(const int* cols, const float* vals, const float* x, float* y, int rows) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float sum = 0.0f;
  for (int k = 0; k < 32; ++k) {
    const int c = cols[k * rows + r];
    if (c >= 0) sum += vals[k * rows + r] * x[c];
  }
  y[r] = sum;
}

extern "C" __global__ void set_value(int* data, int index, int value) {
  if (blockIdx.x == 0 && threadIdx.x == 0) data[index] = value;
}

// One level of a top-down BFS: vertices at `level` mark their unvisited neighbours.
extern "C" __global__ void bfs_level(const int* row_ptr, const int* cols, int* dist, int rows, int level) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= rows || dist[v] != level) return;
  for (int k = row_ptr[v]; k < row_ptr[v + 1]; ++k) {
    const int u = cols[k];
    if (dist[u] < 0) dist[u] = level + 1;
  }
}

// One PageRank step, pulling along the rows (the matrix read as in-edges).
extern "C" __global__ void pagerank_pull(const int* row_ptr, const int* cols, const float* rank, float* next, int rows) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= rows) return;
  float sum = 0.0f;
  for (int k = row_ptr[v]; k < row_ptr[v + 1]; ++k) {
    const int u = cols[k];
    sum += rank[u] / (1 + u % 32);
  }
  next[v] = 0.15f / rows + 0.85f * sum;
}
