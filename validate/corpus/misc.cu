// Solvers, n-body, short launches and access patterns as users write them: a triangular
// solve in one block, a tiled wavefront (Needleman-Wunsch) on one anti-diagonal of tiles,
// all-pairs n-body (direct and shared tiles), small and issue-bound kernels, FP64 AXPY,
// gathers, scattered and strided stores, a transcendental element-wise map.

// Forward substitution L x = b (L lower triangular, row-major, n <= 1024) by one block:
// column j is finished, then every later row subtracts its term.
extern "C" __global__ void trsv_lower(const float* l, float* x, int n) {
  const int i = threadIdx.x;
  for (int j = 0; j < n; ++j) {
    if (i == j) x[j] /= l[j * n + j];
    __syncthreads();
    if (i > j && i < n) x[i] -= l[i * n + j] * x[j];
    __syncthreads();
  }
}

// One anti-diagonal of 32x32 tiles of the Needleman-Wunsch score matrix (n+1)x(n+1); each
// block fills its tile diagonal by diagonal.
extern "C" __global__ void nw_tiles(int* score, const int* a, const int* b, int n, int diagonal) {
  const int tiles = n / 32;
  const int ti = (diagonal < tiles ? 0 : diagonal - tiles + 1) + blockIdx.x, tj = diagonal - ti;
  if (ti >= tiles || tj < 0) return;
  const int w = n + 1, t = threadIdx.x;
  for (int d = 0; d < 63; ++d) {
    const int i = t, j = d - t;
    if (j >= 0 && j < 32) {
      const int r = ti * 32 + i + 1, c = tj * 32 + j + 1;
      const int match = score[(r - 1) * w + c - 1] + (a[r - 1] == b[c - 1] ? 1 : -1);
      score[r * w + c] = max(match, max(score[(r - 1) * w + c], score[r * w + c - 1]) - 1);
    }
    __syncthreads();
  }
}

extern "C" __global__ void nbody_direct(const float4* pos, float4* acc, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float4 p = pos[i];
  float ax = 0.0f, ay = 0.0f, az = 0.0f;
  for (int j = 0; j < n; ++j) {
    const float4 q = pos[j];
    const float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
    const float inv = rsqrtf(dx * dx + dy * dy + dz * dz + 1e-3f);
    const float s = q.w * inv * inv * inv;
    ax += dx * s;
    ay += dy * s;
    az += dz * s;
  }
  acc[i] = make_float4(ax, ay, az, 0.0f);
}

extern "C" __global__ void nbody_tiled(const float4* pos, float4* acc, int n) {
  __shared__ float4 tile[256];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float4 p = pos[i];
  float ax = 0.0f, ay = 0.0f, az = 0.0f;
  for (int t = 0; t < n; t += 256) {
    tile[threadIdx.x] = pos[t + threadIdx.x];
    __syncthreads();
    for (int j = 0; j < 256; ++j) {
      const float4 q = tile[j];
      const float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
      const float inv = rsqrtf(dx * dx + dy * dy + dz * dz + 1e-3f);
      const float s = q.w * inv * inv * inv;
      ax += dx * s;
      ay += dy * s;
      az += dz * s;
    }
    __syncthreads();
  }
  acc[i] = make_float4(ax, ay, az, 0.0f);
}

extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

extern "C" __global__ void fill(float* y, float v, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = v;
}

// An issue-bound loop: `iters` dependent multiply-adds on 4 independent chains per thread.
extern "C" __global__ void fma_loop(float* out, int iters) {
  float a = threadIdx.x, b = a + 1.0f, c = a + 2.0f, d = a + 3.0f;
  for (int k = 0; k < iters; ++k) {
    a = a * 0.999f + 0.5f;
    b = b * 0.998f + 0.25f;
    c = c * 0.997f + 0.125f;
    d = d * 0.996f + 0.0625f;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = a + b + c + d;
}

// An integer hash loop (integer pipe, shifts and multiplies).
extern "C" __global__ void hash_loop(unsigned* out, int iters) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < iters; ++k) {
    x ^= x >> 13;
    x *= 0x5bd1e995u;
    x ^= x >> 15;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

extern "C" __global__ void daxpy(double a, const double* x, double* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

__device__ unsigned mix(unsigned x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  return x;
}

extern "C" __global__ void gather(const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[mix(i) & (n - 1)];
}

// Scattered stores: each thread writes one element at a hashed index (n a power of two).
extern "C" __global__ void scatter(const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[mix(i) & (n - 1)] = x[i];
}

// Column writes: thread i writes element i * stride (mod n): one sector per lane.
extern "C" __global__ void strided_store(const float* x, float* y, int stride, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[(static_cast<long long>(i) * stride) % n + (static_cast<long long>(i) * stride) / n] = x[i];
}

extern "C" __global__ void sigmoid(const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 1.0f / (1.0f + expf(-x[i]));
}
