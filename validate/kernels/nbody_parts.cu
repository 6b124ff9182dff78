// The corpus's nbody_direct (validate/corpus/misc.cu) taken apart, to see which part the model
// gets wrong when few warps run it (validate/probes/nbody_parts.py). Every thread walks the same
// `n` bodies, so every load is one address for the whole warp.

// The loads alone: four float4 loads in flight per unrolled step, summed into four accumulators.
extern "C" __global__ void uniform_stream(const float4* pos, float4* out, int n) {
  float ax = 0.0f, ay = 0.0f, az = 0.0f, aw = 0.0f;
  for (int j = 0; j < n; ++j) {
    const float4 q = pos[j];
    ax += q.x;
    ay += q.y;
    az += q.z;
    aw += q.w;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = make_float4(ax, ay, az, aw);
}

// The arithmetic alone: nbody_direct's body on a body made in registers (one FADD a step).
extern "C" __global__ void nbody_arith(float4* out, int n) {
  const float px = threadIdx.x * 0.01f, py = 0.5f, pz = 0.25f;
  float ax = 0.0f, ay = 0.0f, az = 0.0f, qx = 0.0f;
  for (int j = 0; j < n; ++j) {
    qx += 0.001f;
    const float dx = qx - px, dy = qx * 0.5f - py, dz = qx * 0.25f - pz;
    const float inv = rsqrtf(dx * dx + dy * dy + dz * dz + 1e-3f);
    const float s = inv * inv * inv;
    ax += dx * s;
    ay += dy * s;
    az += dz * s;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = make_float4(ax, ay, az, 0.0f);
}

// How far ptxas moves a load above the work before it: every trip loads one new line (`stride`
// floats on, a miss in the L1, a hit in the L2) and runs a dependent chain of W multiply-adds
// on it. With little work per load ptxas issues many loads before the first use; with much, few
// (nbody_direct: 2). The time per load tells how many were in flight.
template <int W>
__device__ void load_then_work(const float* a, float* out, int n, int stride) {
  float acc = 0.0f;
  for (int j = 0; j < n; ++j) {
    float v = a[j * stride + (threadIdx.x & 31)];
#pragma unroll
    for (int k = 0; k < W; ++k) v = fmaf(v, 0.999f, 0.5f);
    acc += v;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
extern "C" __global__ void load_then_work_1(const float* a, float* out, int n, int s) { load_then_work<1>(a, out, n, s); }
extern "C" __global__ void load_then_work_4(const float* a, float* out, int n, int s) { load_then_work<4>(a, out, n, s); }
extern "C" __global__ void load_then_work_8(const float* a, float* out, int n, int s) { load_then_work<8>(a, out, n, s); }
extern "C" __global__ void load_then_work_16(const float* a, float* out, int n, int s) { load_then_work<16>(a, out, n, s); }
extern "C" __global__ void load_then_work_32(const float* a, float* out, int n, int s) { load_then_work<32>(a, out, n, s); }

// What the special functions cost on a dependent chain, with and without .ftz: ptxas wraps a
// MUFU whose input may be subnormal in a range fix-up (FSETP, a scaling FMUL before and after;
// nbody_arith's rsqrtf). One step: x = f(x) then an FMA that keeps x where the chain started.
#define SFU_CHAIN(NAME, INSTR, MUL, ADD, START)                                 \
  extern "C" __global__ void NAME(float* out, int n) {                         \
    float x = START + threadIdx.x * (0.125f / 32);                             \
    for (int i = 0; i < n; ++i) {                                              \
      float y;                                                                 \
      asm volatile(INSTR " %0, %1;" : "=f"(y) : "f"(x));                       \
      x = fmaf(y, MUL, ADD);                                                   \
    }                                                                          \
    out[blockIdx.x * blockDim.x + threadIdx.x] = x;                            \
  }
SFU_CHAIN(sfu_rsqrt, "rsqrt.approx.f32", 1.0f, 0.25f, 1.0f)
SFU_CHAIN(sfu_rsqrt_ftz, "rsqrt.approx.ftz.f32", 1.0f, 0.25f, 1.0f)
SFU_CHAIN(sfu_ex2, "ex2.approx.f32", 0.5f, 0.0f, 0.5f)
SFU_CHAIN(sfu_ex2_ftz, "ex2.approx.ftz.f32", 0.5f, 0.0f, 0.5f)
SFU_CHAIN(sfu_lg2, "lg2.approx.f32", 1.0f, 2.0f, 4.0f)
SFU_CHAIN(sfu_lg2_ftz, "lg2.approx.ftz.f32", 1.0f, 2.0f, 4.0f)
SFU_CHAIN(sfu_rcp, "rcp.approx.f32", 1.0f, 0.5f, 1.0f)
SFU_CHAIN(sfu_rcp_ftz, "rcp.approx.ftz.f32", 1.0f, 0.5f, 1.0f)
SFU_CHAIN(sfu_sqrt, "sqrt.approx.f32", 1.0f, 0.5f, 1.5f)
SFU_CHAIN(sfu_sqrt_ftz, "sqrt.approx.ftz.f32", 1.0f, 0.5f, 1.5f)
SFU_CHAIN(sfu_sin, "sin.approx.f32", 1.0f, 0.5f, 0.5f)
SFU_CHAIN(sfu_sin_ftz, "sin.approx.ftz.f32", 1.0f, 0.5f, 0.5f)
