//===- Microkernel.h - The contraction path: packed, register-blocked -----===//
//
// What CodeGen emits for a program whose schedule put a contraction in the
// BLIS form (Transforms.h: MicroKernelPlan) or quantized it (QuantPlan):
//   gemm, batched gemm: pack B (KC x NC) and A (MC x KC) into panels, an
//     MR x NR register-blocked micro-kernel over them; AVX-512 (the
//     schedule's MR x NR), AVX2+FMA (6 x 16) and portable (the schedule's,
//     plain loops the compiler vectorizes) picked at run time; the
//     elementwise epilogue applied per block after the last K block;
//   gemv (rows contiguous in K): MR rows at a time against x, AVX-512 /
//     AVX2 / portable vector extensions;
//   int8 gemv: AVX512-VNNI (vpdpbusd, sign moved onto the weights), AVX512BW
//     (vpmaddubsw), AVX2 (vpsignb + vpmaddubsw), portable int32 loops;
//   bf16 gemv: AVX512-BF16 (vdpbf16ps), AVX-512 (widen and FMA), portable;
//   convolution (ConvPlan): the gemm path as an implicit gemm, the input's
//     B panels gathered through offset tables (no im2col buffer).
// RL_ISA=portable|avx2|avx512|avx512vnni|avx512bf16 forces a path.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_CODEGEN_MICROKERNEL_H
#define ROOFLINE_CODEGEN_MICROKERNEL_H

#include "roofline/CodeGen/CpuEmitter.h"

namespace roofline {

/// Whether \p P takes the template path, and which ("gemm", "gemv",
/// "int8 gemv", "bf16 gemv", "implicit gemm"); "" for the generic emitter,
/// with the reason
/// in \p Why.
std::string microKernelKind(const Program &P, const ArgLayout &L,
                            std::string *Why = nullptr);

/// Whether a micro-kernel kind instantiates roofline_gemm.h (its file
/// includes that header).
bool usesGemmRuntime(const std::string &Kind);

/// The kernel entry \p Symbol for a template-path program.
llvm::Expected<std::string> emitMicroKernel(const Program &P,
                                            const ArgLayout &L,
                                            const std::vector<ArgInfo> &Extra,
                                            const std::string &Symbol);

} // namespace roofline

#endif // ROOFLINE_CODEGEN_MICROKERNEL_H
