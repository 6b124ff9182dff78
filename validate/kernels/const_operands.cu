// Constants at fixed addresses (issue 13: conv2d_5x5_constant): ptxas makes no load of them
// on the load/store unit; they are FFMA operands or uniform-register loads (ULDC.64, two at a
// time). Each thread applies 128 taps from constant memory to 4 values of its own, 4
// accumulators: 128 ld.const and 128 FMAs in the PTX.
__constant__ float taps[128];

extern "C" __global__ void const_taps(const float* in, float* out) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  float x[4], acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
#pragma unroll
  for (int j = 0; j < 4; ++j) x[j] = in[4 * t + j];
#pragma unroll
  for (int k = 0; k < 128; ++k) acc[k & 3] += taps[k] * x[k & 3];
  out[t] = acc[0] + acc[1] + acc[2] + acc[3];
}

// The same 128 FMAs with a tap computed in registers instead: the FMAs alone.
extern "C" __global__ void register_taps(const float* in, float* out) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  float x[4], acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
#pragma unroll
  for (int j = 0; j < 4; ++j) x[j] = in[4 * t + j];
  float w = x[0] * 0.5f;
#pragma unroll
  for (int k = 0; k < 128; ++k) {
    acc[k & 3] += w * x[k & 3];
    if ((k & 3) == 3) w += 0.25f;
  }
  out[t] = acc[0] + acc[1] + acc[2] + acc[3];
}
