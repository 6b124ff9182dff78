// Which half of the padded transpose's traffic costs what (micro_tile_access): a 32x32 float
// tile per block of 32x8 threads, read or written the way transpose_padded does it (32 rows
// of 128 bytes, `n` floats apart), against the same bytes as one contiguous 4 KB run per block.
#define TILE 32
#define ROWS 8

__device__ __forceinline__ void keep(float* out, float sum) {
  if (sum == -1234.5f) out[0] = sum;  // never true for the inputs: keeps the loads, stores nothing
}

// Reads the tile at (blockIdx.x, blockIdx.y): transpose_padded's loads.
extern "C" __global__ void tile_read(const float* __restrict__ in, float* __restrict__ out, int n) {
  const int x = blockIdx.x * TILE + threadIdx.x;
  const int y = blockIdx.y * TILE + threadIdx.y;
  float sum = 0.0f;
  for (int j = 0; j < TILE; j += ROWS) sum += in[(y + j) * n + x];
  keep(out, sum);
}

// The same 4 KB per block, contiguous: block b reads floats [1024 b, 1024 b + 1024).
extern "C" __global__ void run_read(const float* __restrict__ in, float* __restrict__ out, int n) {
  const int block = blockIdx.y * gridDim.x + blockIdx.x;
  const int t = threadIdx.y * TILE + threadIdx.x;
  float sum = 0.0f;
  for (int j = 0; j < TILE * TILE; j += TILE * ROWS) sum += in[block * TILE * TILE + j + t];
  keep(out, sum);
}

// Writes the transposed tile: transpose_padded's stores (rows bx*32.., columns by*32..).
extern "C" __global__ void tile_write(float* __restrict__ out, int n) {
  const int x = blockIdx.y * TILE + threadIdx.x;
  const int y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS) out[(y + j) * n + x] = 1.0f;
}

// The same 4 KB per block, contiguous.
extern "C" __global__ void run_write(float* __restrict__ out, int n) {
  const int block = blockIdx.y * gridDim.x + blockIdx.x;
  const int t = threadIdx.y * TILE + threadIdx.x;
  for (int j = 0; j < TILE * TILE; j += TILE * ROWS) out[block * TILE * TILE + j + t] = 1.0f;
}

// Reads the tile and writes it where it was read from in `out`: both halves, no transpose.
extern "C" __global__ void tile_copy(const float* __restrict__ in, float* __restrict__ out, int n) {
  const int x = blockIdx.x * TILE + threadIdx.x;
  const int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS) out[(y + j) * n + x] = in[(y + j) * n + x];
}

// Reads the tile and writes it, untransposed, at the transposed tile's place: the padded
// transpose's addresses without its shared memory and barrier.
extern "C" __global__ void tile_move(const float* __restrict__ in, float* __restrict__ out, int n) {
  const int x = blockIdx.x * TILE + threadIdx.x;
  const int y = blockIdx.y * TILE + threadIdx.y;
  const int to_x = blockIdx.y * TILE + threadIdx.x;
  const int to_y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS) out[(to_y + j) * n + to_x] = in[(y + j) * n + x];
}

// Reads the tile into registers, waits for the whole block, then writes it in place: the
// padded transpose's barrier without its addresses.
extern "C" __global__ void tile_copy_sync(const float* __restrict__ in, float* __restrict__ out, int n) {
  const int x = blockIdx.x * TILE + threadIdx.x;
  const int y = blockIdx.y * TILE + threadIdx.y;
  float v[TILE / ROWS];
  for (int j = 0; j < TILE / ROWS; ++j) v[j] = in[(y + j * ROWS) * n + x];
  __syncthreads();
  for (int j = 0; j < TILE / ROWS; ++j) out[(y + j * ROWS) * n + x] = v[j];
}

// transpose_padded itself (validate/kernels/transpose.cu), for the same run.
extern "C" __global__ void tile_transpose(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS) out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

// The padded transpose with its tile kept in registers' place by a barrier only: reads, waits,
// writes at the transposed place (tile_move plus the barrier).
extern "C" __global__ void tile_move_sync(const float* __restrict__ in, float* __restrict__ out, int n) {
  const int x = blockIdx.x * TILE + threadIdx.x;
  const int y = blockIdx.y * TILE + threadIdx.y;
  const int to_x = blockIdx.y * TILE + threadIdx.x;
  const int to_y = blockIdx.x * TILE + threadIdx.y;
  float v[TILE / ROWS];
  for (int j = 0; j < TILE / ROWS; ++j) v[j] = in[(y + j * ROWS) * n + x];
  __syncthreads();
  for (int j = 0; j < TILE / ROWS; ++j) out[(to_y + j * ROWS) * n + to_x] = v[j];
}

// The same 4 KB per block read and written as contiguous runs.
extern "C" __global__ void run_copy(const float* __restrict__ in, float* __restrict__ out, int n) {
  const int block = blockIdx.y * gridDim.x + blockIdx.x;
  const int t = threadIdx.y * TILE + threadIdx.x;
  for (int j = 0; j < TILE * TILE; j += TILE * ROWS) out[block * TILE * TILE + j + t] = in[block * TILE * TILE + j + t];
}
