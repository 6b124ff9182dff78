// Dense linear algebra as users write it: naive and tiled GEMM, matrix-vector products by
// rows (each thread walks its own row), by columns and by warps, rank-1 and rank-k updates,
// row and column sums. Row-major n x n matrices unless said otherwise.
#define TILE 16

extern "C" __global__ void gemm_naive(const float* a, const float* b, float* c, int n) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= n || col >= n) return;
  float sum = 0.0f;
  for (int k = 0; k < n; ++k) sum += a[row * n + k] * b[k * n + col];
  c[row * n + col] = sum;
}

extern "C" __global__ void gemm_tiled(const float* a, const float* b, float* c, int n) {
  __shared__ float as[TILE][TILE], bs[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float sum = 0.0f;
  for (int t = 0; t < n; t += TILE) {
    as[ty][tx] = (row < n && t + tx < n) ? a[row * n + t + tx] : 0.0f;
    bs[ty][tx] = (col < n && t + ty < n) ? b[(t + ty) * n + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; ++k) sum += as[ty][k] * bs[k][tx];
    __syncthreads();
  }
  if (row < n && col < n) c[row * n + col] = sum;
}

// 64x64 tile per block of 16x16 threads, 4x4 outputs per thread held in registers.
extern "C" __global__ void gemm_register_blocked(const float* a, const float* b, float* c, int n) {
  __shared__ float as[64][17], bs[16][64];
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * 16 + tx;
  const int row0 = blockIdx.y * 64, col0 = blockIdx.x * 64;
  float acc[4][4] = {};
  for (int t = 0; t < n; t += 16) {
    for (int i = tid; i < 64 * 16; i += 256) {
      as[i / 16][i % 16] = a[(row0 + i / 16) * n + t + i % 16];
      bs[i / 64][i % 64] = b[(t + i / 64) * n + col0 + i % 64];
    }
    __syncthreads();
    for (int k = 0; k < 16; ++k) {
      float av[4], bv[4];
      for (int i = 0; i < 4; ++i) av[i] = as[ty * 4 + i][k];
      for (int j = 0; j < 4; ++j) bv[j] = bs[k][tx * 4 + j];
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) acc[i][j] += av[i] * bv[j];
    }
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) c[(row0 + ty * 4 + i) * n + col0 + tx * 4 + j] = acc[i][j];
}

// y = A x with one thread per row: each thread walks its own row (rows a cache line apart).
extern "C" __global__ void matvec_rows(const float* a, const float* x, float* y, int rows, int cols) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float sum = 0.0f;
  for (int k = 0; k < cols; ++k) sum += a[(long long)r * cols + k] * x[k];
  y[r] = sum;
}

// y = A x with A stored column-major: neighbouring threads read neighbouring elements.
extern "C" __global__ void matvec_cols(const float* a, const float* x, float* y, int rows, int cols) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float sum = 0.0f;
  for (int k = 0; k < cols; ++k) sum += a[(long long)k * rows + r] * x[k];
  y[r] = sum;
}

// y = A x with a warp per row and a shuffle reduction.
extern "C" __global__ void matvec_warp(const float* a, const float* x, float* y, int rows, int cols) {
  const int r = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
  if (r >= rows) return;
  float sum = 0.0f;
  for (int k = lane; k < cols; k += 32) sum += a[(long long)r * cols + k] * x[k];
  for (int o = 16; o > 0; o /= 2) sum += __shfl_down_sync(0xffffffffu, sum, o);
  if (lane == 0) y[r] = sum;
}

// A += x y^T, one thread per element.
extern "C" __global__ void rank1_update(float* a, const float* x, const float* y, int n) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y;
  if (col < n) a[(long long)row * n + col] += x[row] * y[col];
}

// C += A A^T for an n x k matrix A (symmetric rank-k update), one thread per element.
extern "C" __global__ void rank_k_update(const float* a, float* c, int n, int k) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= n || col >= n) return;
  float sum = 0.0f;
  for (int p = 0; p < k; ++p) sum += a[row * k + p] * a[col * k + p];
  c[row * n + col] += sum;
}

// Row sums: each thread adds its own row.
extern "C" __global__ void row_sums(const float* a, float* out, int rows, int cols) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float sum = 0.0f;
  for (int k = 0; k < cols; ++k) sum += a[(long long)r * cols + k];
  out[r] = sum;
}

// Column sums: each thread adds its own column (coalesced across the warp).
extern "C" __global__ void column_sums(const float* a, float* out, int rows, int cols) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= cols) return;
  float sum = 0.0f;
  for (int r = 0; r < rows; ++r) sum += a[(long long)r * cols + c];
  out[c] = sum;
}
