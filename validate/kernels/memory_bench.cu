// Memory microbenchmarks: a streaming copy (bandwidth), a strided read (coalescing),
// and a pointer chase (latency). One file, several entries.
extern "C" __global__ void copy_f32(const float* __restrict__ in, float* __restrict__ out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) out[i] = in[i];
}

// A grid-stride sum: reads n floats, writes one per thread (DRAM read bandwidth alone).
extern "C" __global__ void stream_read(const float* __restrict__ in, float* __restrict__ out, int n) {
  float sum = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) sum += in[i];
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// Each thread sums `reps` elements `stride` apart: stride 1 is coalesced, larger strides
// touch one sector per thread.
extern "C" __global__ void strided_read(const float* __restrict__ in, float* __restrict__ out, int stride, int n) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const long long i = (static_cast<long long>(t) * stride) % n;
  out[t] = in[i] * 2.0f;
}

extern "C" __global__ void strided_write(float* __restrict__ out, int stride, int n) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[(static_cast<long long>(t) * stride) % n] = static_cast<float>(t);
}

// mode 0: every thread writes next[i] = (i + step) % n (a ring); mode 1: one thread
// follows the ring `hops` times and stores where it ended.
extern "C" __global__ void pointer_chase(unsigned* next, unsigned* out, int n, int step, int hops, int mode) {
  if (mode == 0) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
      next[i] = static_cast<unsigned>((i + step) % n);
    return;
  }
  unsigned p = 0;
  for (int h = 0; h < hops; ++h) p = __ldcg(&next[p]);
  out[0] = p;
}

// A grid-stride fill: writes n floats, reads nothing (DRAM write bandwidth alone).
extern "C" __global__ void fill_f32(float* __restrict__ out, int n, float v) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) out[i] = v;
}
