// Matrix transpose, out = in^T for an n x n float matrix, three ways: naive (strided
// writes), tiled through shared memory (bank conflicts on the column reads), and tiled
// with the tile padded by one column (no conflicts). 32x8 threads per 32x32 tile.
#define TILE 32
#define ROWS 8

extern "C" __global__ void transpose_naive(const float* __restrict__ in, float* __restrict__ out, int n) {
  const int x = blockIdx.x * TILE + threadIdx.x;
  const int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < n && y + j < n) out[x * n + (y + j)] = in[(y + j) * n + x];
}

extern "C" __global__ void transpose_tiled(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float tile[TILE][TILE];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < n && y + j < n) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < n && y + j < n) out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

extern "C" __global__ void transpose_padded(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < n && y + j < n) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < n && y + j < n) out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}
