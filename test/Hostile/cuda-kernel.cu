// A .cu file: host code is analyzed; a loop in a __global__ or __device__
// function runs once per thread of a launch whose grid is not known, so it
// is refused by name rather than counted as if one thread did all the work.
// REQUIRES: nvcc
// RUN: %expect-exit 0 roofline-lint --no-source %s 2>&1 | FileCheck %s

// CHECK: cuda-kernel.cu:[[@LINE+3]]:3: note: loop nest not analyzed: loop in a CUDA __global__ function: it runs once per thread of a launch whose grid is not known statically [roofline-unanalyzable]
__global__ void rows(float *A, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = 0; i < 8; ++i)
    A[t * 8 + i] += 1.0f;
}

// CHECK: cuda-kernel.cu:[[@LINE+2]]:3: note: loop nest not analyzed: loop in a CUDA __device__ function
__device__ float sum8(const float *A) { float S = 0;
  for (int i = 0; i < 8; ++i)
    S += A[i];
  return S;
}

// CHECK: cuda-kernel.cu:[[@LINE+2]]:3: remark: host_scale: {{.*}}[roofline-verdict]
void host_scale(float *A) {
  for (int i = 0; i < 1024; ++i)
    A[i] *= 2.0f;
}
