// Convolutions and stencils as users write them: 1-D and 2-D convolutions (global, constant
// filter, shared tile, separable passes), 2-D 9-point and shared-tile 5-point stencils,
// 3-D 7-point stencils (a thread per point, and one marching along z), red-black SOR.
#define R1 8
__constant__ float filter[25];

extern "C" __global__ void conv1d(const float* in, const float* w, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float sum = 0.0f;
  for (int k = -R1; k <= R1; ++k) {
    const int j = i + k;
    if (j >= 0 && j < n) sum += w[k + R1] * in[j];
  }
  out[i] = sum;
}

extern "C" __global__ void conv2d_3x3(const float* in, const float* w, float* out, int nx, int ny) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1 || y < 1 || x >= nx - 1 || y >= ny - 1) return;
  float sum = 0.0f;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) sum += w[(dy + 1) * 3 + dx + 1] * in[(y + dy) * nx + x + dx];
  out[y * nx + x] = sum;
}

// 5x5 filter from constant memory (every thread of a warp reads the same tap).
extern "C" __global__ void conv2d_5x5_constant(const float* in, float* out, int nx, int ny) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 2 || y < 2 || x >= nx - 2 || y >= ny - 2) return;
  float sum = 0.0f;
  for (int dy = -2; dy <= 2; ++dy)
    for (int dx = -2; dx <= 2; ++dx) sum += filter[(dy + 2) * 5 + dx + 2] * in[(y + dy) * nx + x + dx];
  out[y * nx + x] = sum;
}

// 5x5 constant filter over a 16x16 shared tile with a 2-point halo.
extern "C" __global__ void conv2d_5x5_shared(const float* in, float* out, int nx, int ny) {
  __shared__ float tile[20][20];
  const int x0 = blockIdx.x * 16 - 2, y0 = blockIdx.y * 16 - 2;
  for (int i = threadIdx.y * 16 + threadIdx.x; i < 400; i += 256) {
    const int gx = x0 + i % 20, gy = y0 + i / 20;
    tile[i / 20][i % 20] = (gx >= 0 && gy >= 0 && gx < nx && gy < ny) ? in[gy * nx + gx] : 0.0f;
  }
  __syncthreads();
  const int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
  if (x < 2 || y < 2 || x >= nx - 2 || y >= ny - 2) return;
  float sum = 0.0f;
  for (int dy = 0; dy < 5; ++dy)
    for (int dx = 0; dx < 5; ++dx) sum += filter[dy * 5 + dx] * tile[threadIdx.y + dy][threadIdx.x + dx];
  out[y * nx + x] = sum;
}

// Separable filter: a row pass, then a column pass (radius 8).
extern "C" __global__ void conv_rows(const float* in, const float* w, float* out, int nx, int ny) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x >= nx) return;
  float sum = 0.0f;
  for (int k = -R1; k <= R1; ++k) sum += w[k + R1] * in[y * nx + min(max(x + k, 0), nx - 1)];
  out[y * nx + x] = sum;
}

extern "C" __global__ void conv_columns(const float* in, const float* w, float* out, int nx, int ny) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x >= nx) return;
  float sum = 0.0f;
  for (int k = -R1; k <= R1; ++k) sum += w[k + R1] * in[min(max(y + k, 0), ny - 1) * nx + x];
  out[y * nx + x] = sum;
}

extern "C" __global__ void stencil9(const float* in, float* out, int nx, int ny) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1 || y < 1 || x >= nx - 1 || y >= ny - 1) return;
  const float* p = in + y * nx + x;
  out[y * nx + x] = 0.5f * p[0] + 0.0625f * (p[-1] + p[1] + p[-nx] + p[nx] + p[-nx - 1] + p[-nx + 1] + p[nx - 1] + p[nx + 1]);
}

// 5-point stencil through a 32x8 shared tile with halo rows and columns.
extern "C" __global__ void stencil5_shared(const float* in, float* out, int nx, int ny) {
  __shared__ float t[10][34];
  const int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 8 + threadIdx.y;
  const int tx = threadIdx.x + 1, ty = threadIdx.y + 1;
  const bool inside = x < nx && y < ny;
  t[ty][tx] = inside ? in[y * nx + x] : 0.0f;
  if (threadIdx.x == 0) t[ty][0] = (x > 0 && y < ny) ? in[y * nx + x - 1] : 0.0f;
  if (threadIdx.x == 31) t[ty][33] = (x + 1 < nx && y < ny) ? in[y * nx + x + 1] : 0.0f;
  if (threadIdx.y == 0) t[0][tx] = (y > 0 && x < nx) ? in[(y - 1) * nx + x] : 0.0f;
  if (threadIdx.y == 7) t[9][tx] = (y + 1 < ny && x < nx) ? in[(y + 1) * nx + x] : 0.0f;
  __syncthreads();
  if (x < 1 || y < 1 || x >= nx - 1 || y >= ny - 1) return;
  out[y * nx + x] = 0.2f * (t[ty][tx] + t[ty][tx - 1] + t[ty][tx + 1] + t[ty - 1][tx] + t[ty + 1][tx]);
}

extern "C" __global__ void stencil7_3d(const float* in, float* out, int n) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y, z = blockIdx.z;
  if (x < 1 || y < 1 || z < 1 || x >= n - 1 || y >= n - 1 || z >= n - 1) return;
  const int s = n * n, i = z * s + y * n + x;
  out[i] = 0.4f * in[i] + 0.1f * (in[i - 1] + in[i + 1] + in[i - n] + in[i + n] + in[i - s] + in[i + s]);
}

// The same stencil with each thread marching along z, keeping the column in registers.
extern "C" __global__ void stencil7_3d_march(const float* in, float* out, int n) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1 || y < 1 || x >= n - 1 || y >= n - 1) return;
  const int s = n * n;
  float below = in[y * n + x], here = in[s + y * n + x];
  for (int z = 1; z < n - 1; ++z) {
    const int i = z * s + y * n + x;
    const float above = in[i + s];
    out[i] = 0.4f * here + 0.1f * (in[i - 1] + in[i + 1] + in[i - n] + in[i + n] + below + above);
    below = here;
    here = above;
  }
}

// One colour of a red-black Gauss-Seidel sweep for the Poisson equation (in place).
extern "C" __global__ void sor_color(float* u, const float* f, int n, int color) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1 || y < 1 || x >= n - 1 || y >= n - 1 || ((x + y) & 1) != color) return;
  const int i = y * n + x;
  u[i] = 0.25f * (u[i - 1] + u[i + 1] + u[i - n] + u[i + n] - f[i]);
}
