//===- Microkernel.cpp - Packed, register-blocked contraction kernels -----===//
//
// The text here is instantiated, not interpreted: the schedule's block and
// register sizes, the operands' strides (from the unit's shapes), whether
// Out is cleared first, and the epilogue's statements become constants and
// code in the emitted file, around the packing routines of
// roofline_kernel.h. Partial tiles (sizes that are not multiples of MR, NR,
// MC, NC, KC) are computed on zero-padded panels into a tile buffer and
// merged, so the micro-kernels only ever see full tiles.
//
//===----------------------------------------------------------------------===//

#include "roofline/CodeGen/Microkernel.h"
#include "roofline/CodeGen/Units.h"
#include "roofline/CodeGen/VectorEpilogue.h"
#include "roofline/Support/Error.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <array>

using namespace roofline;

namespace {


std::string num(int64_t V) { return std::to_string(V); }

/// Element stride of dimension \p D of \p A (row-major).
std::string dimStride(const ArgInfo &A, size_t D) {
  std::vector<std::string> F;
  for (size_t E = D + 1; E < A.Shape.size(); ++E)
    F.push_back(parenthesized(cExpr(A.Shape[E])));
  return F.empty() ? "1" : llvm::join(F, " * ");
}

/// Element stride of loop \p IV in operand \p O laid out as \p A.
std::string strideOf(const ArgInfo &A, const Operand &O,
                     const std::string &IV) {
  auto It = std::find(O.Dims.begin(), O.Dims.end(), IV);
  return It == O.Dims.end() ? "0" : dimStride(A, It - O.Dims.begin());
}

/// Offset of the element where every loop of \p O is at its first value
/// (batch loops at their current value).
std::string baseOffset(const ArgInfo &A, const Operand &O,
                       const ContractionInfo &C) {
  std::vector<std::string> Terms;
  for (const std::string &IV : O.Dims) {
    bool Batch = std::find(C.Batch.begin(), C.Batch.end(), IV) != C.Batch.end();
    std::string At = Batch ? IV : cExpr(C.First.at(IV));
    if (At == "0")
      continue;
    std::string S = strideOf(A, O, IV);
    Terms.push_back(parenthesized(At) + (S == "1" ? "" : " * " + parenthesized(S)));
  }
  return Terms.empty() ? "0" : llvm::join(Terms, " + ");
}

using OperandArgs = std::array<const ArgInfo *, 3>;

/// The arguments of a contraction's output and two operands.
llvm::Expected<OperandArgs> operandArgs(const ArgLayout &L,
                                        const std::vector<ArgInfo> &Extra,
                                        const std::array<std::string, 3> &Names) {
  OperandArgs A;
  for (size_t I = 0; I < 3; ++I)
    if (!(A[I] = findArg(L, Extra, Names[I])))
      return makeError("operand '" + Names[I] + "' is not an argument");
  return A;
}

/// Declarations of the sizes and of the arrays the kernel reads or writes.
std::string prologue(const std::string &Symbol, const ArgLayout &L,
                     const std::vector<ArgInfo> &Extra,
                     const std::set<std::string> &Used,
                     const std::set<std::string> &Written) {
  std::string S = "RL_EXPORT void " + Symbol +
                  "(void *const *rl_args, const int64_t *rl_sizes) {\n";
  for (size_t I = 0; I < L.Sizes.size(); ++I)
    S += "  const int64_t " + L.Sizes[I].Name + " = rl_sizes[" + num(I) +
         "];\n";
  for (const Param &P : L.Sizes)
    S += "  (void)" + P.Name + ";\n";
  auto Decl = [&](const ArgInfo &A, int Index) {
    if (!Used.count(A.Name))
      return;
    std::string T = cTypeFor(A.CType, EmitMode::AsWritten);
    std::string Arg = "rl_args[" + num(Index) + "]";
    bool W = Written.count(A.Name) != 0;
    if (A.IsScalar) {
      S += W ? "  " + T + " &" + A.Name + " = *static_cast<" + T + " *>(" +
                   Arg + ");\n"
             : "  const " + T + " " + A.Name + " = *static_cast<const " + T +
                   " *>(" + Arg + ");\n";
      return;
    }
    S += W ? "  " + T + " *RL_RESTRICT " + A.Name + " = static_cast<" + T +
                 " *>(" + Arg + ");\n"
           : "  const " + T + " *RL_RESTRICT " + A.Name +
                 " = static_cast<const " + T + " *>(" + Arg + ");\n";
  };
  for (size_t I = 0; I < L.Args.size(); ++I)
    Decl(L.Args[I], static_cast<int>(I));
  for (size_t I = 0; I < Extra.size(); ++I)
    Decl(Extra[I], static_cast<int>(L.Args.size() + I));
  return S;
}

/// The epilogue as a loop nest over a block of Out: M (and N) from rl_i0
/// (rl_j0) for rl_mi (rl_nj) elements, in absolute indices.
llvm::Expected<std::string> epilogueCode(const ContractionInfo &C,
                                         const ArgLayout &L,
                                         const std::vector<ArgInfo> &Extra,
                                         unsigned Indent) {
  if (C.Epilogue.empty())
    return std::string();
  KernelNest K;
  K.Nest.Sem.Complete = true;
  auto Range = [](const std::string &IV, const std::string &From,
                  const std::string &Count) {
    Loop Lp;
    Lp.IV = IV;
    Lp.First = Bound::single(AffineExpr::var(From));
    Lp.Last = Bound::single(*AffineExpr::var(From)
                                 .add(AffineExpr::var(Count))
                                 ->addConstant(-1));
    return Lp;
  };
  Loop Row = Range(C.M, "rl_i0", "rl_mi");
  std::vector<Node> Body;
  for (const Stmt &S : C.Epilogue)
    Body.push_back(Node::stmt(S));
  if (!C.N.empty()) {
    Loop Col = Range(C.N, "rl_j0", "rl_nj");
    Col.Body = std::move(Body);
    Row.Body.push_back(Node::loop(std::move(Col)));
  } else {
    Row.Body = std::move(Body);
  }
  K.Nest.Root = std::move(Row);
  return emitLoopCode(K, L, Extra, Indent);
}

//===----------------------------------------------------------------------===//
// gemm: roofline_gemm.h instantiated
//===----------------------------------------------------------------------===//

/// Whether an MR x NR tile of AVX-512 accumulators (and its B vectors and
/// broadcast) fits the 32 vector registers.
bool avx512Fits(int64_t MR, int64_t NR) {
  return NR % 16 == 0 && NR >= 16 && MR >= 1 &&
         MR * (NR / 16) + NR / 16 + 1 <= 32;
}

std::string indent(unsigned N) { return std::string(2 * N, ' '); }

/// The run-time pick among \p Paths (best first), as a driver path.
std::string pathPick(const std::string &Paths) {
  return "  static const rl::gemm::path rl_path = "
         "rl::gemm::path_of(rl::pick({" +
         Paths + "}));\n";
}

/// How a gemm's epilogue runs: a functor on C in registers (vector
/// operations), or a lambda over each finished block (the statements as
/// loops) where the vector operations cannot express it.
struct EpilogueCode {
  std::string Before; ///< namespace scope: the functor
  std::string Local;  ///< where the driver is called: the object
  std::string Epi = "rl::gemm::no_epi()", Blk = "rl::gemm::no_block_epi()";
  bool PerBlock = false;
  std::string How; ///< for the head comment
};

llvm::Expected<EpilogueCode> gemmEpilogue(const ContractionInfo &C,
                                          const ArgLayout &L,
                                          const std::vector<ArgInfo> &Extra,
                                          unsigned Ind) {
  EpilogueCode E;
  if (C.Epilogue.empty())
    return E;
  llvm::Expected<VectorEpilogue> V = vectorEpilogue(C, L, Extra, "rl_epilogue");
  if (V) {
    E.Before = V->Definition;
    E.Local = indent(Ind) + "const rl_epilogue epi{" + llvm::join(V->Init, ", ") +
              "};\n";
    E.Epi = "epi";
    E.How = "the epilogue on C in registers";
    return E;
  }
  std::string Why = llvm::toString(V.takeError());
  llvm::Expected<std::string> Loops = epilogueCode(C, L, Extra, Ind + 1);
  if (!Loops)
    return Loops.takeError();
  // The block's offsets are relative to the loops' first values.
  E.Local = indent(Ind) + "// Not in registers: " + Why + ".\n" + indent(Ind) +
            "auto blk = [&](int64_t rl_ib, int64_t rl_mi, int64_t rl_jb, "
            "int64_t rl_nj) {\n" +
            indent(Ind + 1) + "const int64_t rl_i0 = " + parenthesized(cExpr(C.First.at(C.M))) +
            " + rl_ib, rl_j0 = " + parenthesized(cExpr(C.First.at(C.N))) + " + rl_jb;\n" +
            *Loops + indent(Ind) + "};\n";
  E.Blk = "blk";
  E.PerBlock = true;
  E.How = "the epilogue per finished block (" + Why + ")";
  return E;
}

/// Batch loops around one gemm each; returns the indentation inside.
unsigned batchLoops(const ContractionInfo &C, std::string &S) {
  unsigned Ind = 1;
  for (const std::string &Bt : C.Batch) {
    std::string F = cExpr(C.First.at(Bt));
    S += indent(Ind) + "for (int64_t " + Bt + " = " + F + "; " + Bt + " < " +
         parenthesized(F) + " + " + parenthesized(cExpr(C.Extent.at(Bt))) + "; ++" + Bt + ") {\n";
    ++Ind;
  }
  return Ind;
}

std::string closeLoops(size_t N, unsigned Ind) {
  std::string S;
  for (size_t I = 0; I < N; ++I)
    S += indent(--Ind) + "}\n";
  return S;
}

/// `A + offset` of operand \p O at the loops' first values.
std::string basePtr(const ArgInfo &A, const Operand &O, const ContractionInfo &C) {
  std::string Off = baseOffset(A, O, C);
  return Off == "0" ? A.Name : A.Name + " + " + parenthesized(Off);
}

std::string blocksOf(int64_t MC, int64_t NC, int64_t KC) {
  return "rl::gemm::blocks{" + num(MC) + ", " + num(NC) + ", " + num(KC) + "}";
}

llvm::Expected<std::string> emitGemm(const Program &P, const ArgLayout &L,
                                     const std::vector<ArgInfo> &Extra,
                                     const std::string &Symbol) {
  const MicroKernelPlan &M = *P.Micro;
  const ContractionInfo &C = M.C;
  llvm::Expected<OperandArgs> Args =
      operandArgs(L, Extra, {C.Out.Array, C.L.Array, C.R.Array});
  if (!Args)
    return Args.takeError();
  const ArgInfo *AO = (*Args)[0], *AL = (*Args)[1], *AR = (*Args)[2];
  unsigned Ind = 1 + static_cast<unsigned>(C.Batch.size());
  llvm::Expected<EpilogueCode> Epi = gemmEpilogue(C, L, Extra, Ind);
  if (!Epi)
    return Epi.takeError();
  bool Wide = avx512Fits(M.MR, M.NR);
  std::string S =
      "// Micro-kernel path (roofline_gemm.h): " + C.kind() + " " + C.Out.Array +
      " " + (C.InitZero ? "=" : "+=") + " " + C.L.Array + " * " + C.R.Array +
      ", BLIS-style.\n// MC=" + num(M.MC) + " NC=" + num(M.NC) + " KC=" + num(M.KC) +
      "; register tile " + num(M.MR) + "x" + num(M.NR) +
      (Wide ? " (AVX-512 and portable)" : " (portable)") + ", 6x16 on AVX2" +
      (M.Parallel ? "; threads own columns of C (or share the M blocks when N is narrow)" : "") +
      ";\n// problems of about 128 or less in every size unpacked (the small path)" +
      (Epi->How.empty() ? "" : ";\n// " + Epi->How) + ".\n";
  if (!Epi->Before.empty())
    S += "namespace {\n\n" + Epi->Before + "\n} // namespace\n\n";
  std::set<std::string> Used{C.Out.Array, C.L.Array, C.R.Array}, Written{C.Out.Array};
  for (const Stmt &E : C.Epilogue)
    usedArrays(E, Used, Written);
  S += prologue(Symbol, L, Extra, Used, Written);
  S += pathPick(Wide ? "rl::isa::avx512, rl::isa::avx2, rl::isa::portable"
                     : "rl::isa::avx2, rl::isa::portable");
  batchLoops(C, S);
  auto I = indent;
  S += I(Ind) + "const rl::gemm::strided g{" + cExpr(C.Extent.at(C.M)) + ", " +
       cExpr(C.Extent.at(C.N)) + ", " + cExpr(C.Extent.at(C.K)) + ",\n" +
       I(Ind + 2) + basePtr(*AL, C.L, C) + ", " + strideOf(*AL, C.L, C.M) + ", " +
       strideOf(*AL, C.L, C.K) + ",\n" + I(Ind + 2) + basePtr(*AR, C.R, C) + ", " +
       strideOf(*AR, C.R, C.K) + ", " + strideOf(*AR, C.R, C.N) + ",\n" +
       I(Ind + 2) + basePtr(*AO, C.Out, C) + ", " + strideOf(*AO, C.Out, C.M) + ", " +
       strideOf(*AO, C.Out, C.N) + ", " + (C.InitZero ? "true" : "false") + "};\n";
  S += Epi->Local;
  S += I(Ind) + "rl::gemm::sgemm<" + num(M.MR) + ", " + num(M.NR) + ">(rl_path, g, " +
       blocksOf(M.MC, M.NC, M.KC) + ", " + (M.Parallel ? "true" : "false") + ", " +
       Epi->Epi + ", " + Epi->Blk + (Epi->PerBlock ? ", true" : "") + ");\n";
  S += closeLoops(C.Batch.size(), Ind);
  return S + "}\n";
}

/// An int8 or bf16 gemm: the prepared operand (L) and the f32 one (R) the
/// driver quantizes or rounds itself on each call.
llvm::Expected<std::string> emitQuantGemm(const Program &P, const ArgLayout &L,
                                          const std::vector<ArgInfo> &Extra,
                                          const std::string &Symbol,
                                          const TileDefaults &T) {
  const QuantPlan &Q = *P.Quant;
  const ContractionInfo &C = Q.C;
  bool Int8 = Q.Precision == "int8";
  std::string LA = C.L.Array + (Int8 ? "_q" : "_bf16"), Ls = C.L.Array + "_scale";
  llvm::Expected<OperandArgs> Args = operandArgs(L, Extra, {C.Out.Array, LA, C.R.Array});
  if (!Args)
    return Args.takeError();
  const ArgInfo *AO = (*Args)[0], *AL = (*Args)[1], *AR = (*Args)[2];
  Operand OL{LA, C.L.Dims};
  std::string ScalePtr = "nullptr", ScaleStride = "0";
  std::set<std::string> Used{C.Out.Array, LA, C.R.Array}, Written{C.Out.Array};
  if (Int8) {
    const ArgInfo *AS = findArg(L, Extra, Ls);
    if (!AS)
      return makeError("the scale '" + Ls + "' is not an argument");
    Used.insert(Ls);
    std::vector<std::string> Dims;
    if (Q.LGran == "row")
      Dims = {C.M};
    Operand OS{Ls, Dims};
    ScalePtr = Dims.empty() ? Ls : basePtr(*AS, OS, C);
    ScaleStride = Dims.empty() ? "0" : strideOf(*AS, OS, C.M);
  }
  llvm::Expected<EpilogueCode> Epi = gemmEpilogue(C, L, Extra, 1);
  if (!Epi)
    return Epi.takeError();
  for (const Stmt &E : C.Epilogue)
    usedArrays(E, Used, Written);
  std::string S =
      "// Micro-kernel path (roofline_gemm.h): " + Q.Precision + " gemm " + C.Out.Array +
      " " + (C.InitZero ? "=" : "+=") + " " + C.L.Array + " * " + C.R.Array + ".\n// " +
      LA + ": " + C.L.Array + " in " + Q.Precision + ", made once by the prepare entry" +
      (Int8 ? " (a scale per " + Q.LGran + ")" : "") + "; " + C.R.Array +
      (Int8 ? " quantized (a scale per " + Q.RGran + ")"
            : " rounded to bf16") +
      " while its panels are packed, on each call.\n// " +
      (Int8 ? "int32 sums: AMX tdpbsud or AVX512-VNNI vpdpbusd on " + C.R.Array +
                  " + 128 (less 128 * the row sums of " + LA +
                  "), else\n// vpmaddwd on int16 pairs; "
                  "dequantized (times both scales) in the store."
            : "f32 sums: AVX512-BF16 vdpbf16ps, else bf16 widened to f32 and FMA.") +
      (Epi->How.empty() ? "" : "\n// " + Epi->How + ".") + "\n";
  if (!Epi->Before.empty())
    S += "namespace {\n\n" + Epi->Before + "\n} // namespace\n\n";
  S += prologue(Symbol, L, Extra, Used, Written);
  S += pathPick(Int8 ? "rl::isa::amx, rl::isa::avx512vnni, rl::isa::avx512, "
                       "rl::isa::avx2, rl::isa::portable"
                     : "rl::isa::amx, rl::isa::avx512bf16, rl::isa::avx512, "
                       "rl::isa::portable");
  auto I = indent;
  S += I(1) + "const rl::gemm::qproblem g{" + cExpr(C.Extent.at(C.M)) + ", " +
       cExpr(C.Extent.at(C.N)) + ", " + cExpr(C.Extent.at(C.K)) + ",\n" + I(3) +
       basePtr(*AL, OL, C) + ", " + strideOf(*AL, OL, C.M) + ", " +
       strideOf(*AL, OL, C.K) + ", " + ScalePtr + ", " + ScaleStride + ",\n" + I(3) +
       basePtr(*AR, C.R, C) + ", " + strideOf(*AR, C.R, C.K) + ", " +
       strideOf(*AR, C.R, C.N) + ", " + (Q.RGran == "col" ? "true" : "false") + ",\n" +
       I(3) + basePtr(*AO, C.Out, C) + ", " + strideOf(*AO, C.Out, C.M) + ", " +
       strideOf(*AO, C.Out, C.N) + ", " + (C.InitZero ? "true" : "false") + "};\n";
  S += Epi->Local;
  S += I(1) + (Int8 ? "rl::gemm::i8gemm" : "rl::gemm::bf16gemm") + "(rl_path, g, " +
       blocksOf(T.MC, T.NC, T.KC) + ", " + Epi->Epi + ", " + Epi->Blk + ");\n";
  return S + "}\n";
}

//===----------------------------------------------------------------------===//
// convolution: the implicit gemm
//===----------------------------------------------------------------------===//

/// Element stride of loop \p IV in \p O (laid out as \p A): its
/// coefficient times the dimension's stride; "" when IV does not index O.
std::string termStride(const ArgInfo &A, const ConvOperand &O,
                       const std::string &IV) {
  for (size_t D = 0; D < O.Dims.size(); ++D)
    for (const ConvTerm &T : O.Dims[D])
      if (T.IV == IV) {
        std::string S = dimStride(A, D);
        if (T.Coeff == 1)
          return S;
        return S == "1" ? num(T.Coeff) : num(T.Coeff) + " * " + parenthesized(S);
      }
  return "";
}

/// \p IV's value times its stride in \p O; "" when IV does not index O.
std::string termOffset(const ArgInfo &A, const ConvOperand &O,
                       const std::string &IV) {
  std::string S = termStride(A, O, IV);
  if (S.empty() || S == "1")
    return S.empty() ? S : IV;
  return IV + " * " + parenthesized(S);
}

/// Fills the offset tables \p Tables (name, operand) of a flattened loop
/// space (\p IVs, outermost first) with each point's offset in the operand.
std::string offsetTables(
    const ConvInfo &C, const std::vector<std::string> &IVs,
    const std::vector<std::pair<std::string, std::pair<const ArgInfo *,
                                                       const ConvOperand *>>>
        &Tables) {
  std::string S = "  {\n    int64_t rl_t = 0;\n";
  unsigned Ind = 2;
  for (size_t I = 0; I < IVs.size(); ++I) {
    const std::string &IV = IVs[I];
    std::string F = cExpr(C.First.at(IV)), E = cExpr(C.Extent.at(IV));
    S += indent(Ind++) + "for (int64_t " + IV + " = " + F + "; " + IV + " < " +
         (F == "0" ? E : parenthesized(F) + " + " + parenthesized(E)) + "; ++" + IV + ")" +
         (I + 1 == IVs.size() ? " {\n" : "\n");
  }
  for (const auto &[Name, Op] : Tables) {
    std::vector<std::string> Terms;
    for (const std::string &IV : IVs) {
      std::string T = termOffset(*Op.first, *Op.second, IV);
      if (!T.empty())
        Terms.push_back(T);
    }
    // The input's constant offsets (padding) go with its K table.
    if (Op.second == &C.In && IVs == C.K)
      for (size_t D = 0; D < C.In.Offset.size(); ++D)
        if (int64_t Off = C.In.Offset[D]) {
          std::string St = dimStride(*Op.first, D);
          Terms.push_back(St == "1" ? "(" + num(Off) + ")"
                                    : "(" + num(Off) + ") * " + parenthesized(St));
        }
    S += indent(Ind) + Name + ".data()[rl_t] = " +
         (Terms.empty() ? "0" : llvm::join(Terms, " + ")) + ";\n";
  }
  // Zero padding: each padded subscript's part of this loop space (the
  // offset with the filter's), D to an index.
  for (size_t P = 0; P < C.Pads.size(); ++P) {
    const size_t D = C.Pads[P].Dim;
    std::vector<std::string> Terms;
    for (const ConvTerm &T : C.In.Dims[D])
      if (std::find(IVs.begin(), IVs.end(), T.IV) != IVs.end())
        Terms.push_back(T.Coeff == 1 ? T.IV : T.IV + " * " + num(T.Coeff));
    if (IVs == C.K && C.In.Offset[D])
      Terms.push_back("(" + num(C.In.Offset[D]) + ")");
    S += indent(Ind) + (IVs == C.K ? "rl_pk" : "rl_pn") + ".data()[rl_t * " +
         num(int64_t(C.Pads.size())) + " + " + num(int64_t(P)) + "] = " +
         (Terms.empty() ? "0" : llvm::join(Terms, " + ")) + ";\n";
  }
  S += indent(Ind) + "++rl_t;\n" + indent(Ind - 1) + "}\n  }\n";
  return S;
}

/// The padding tables' declarations and the qconv/gathered fields that
/// name them: `D, pk, pn, lim` (none: `0, nullptr, nullptr, nullptr`).
std::pair<std::string, std::string> padTables(const ConvInfo &C) {
  if (C.Pads.empty())
    return {"", "0, nullptr, nullptr, nullptr"};
  std::string D = num(int64_t(C.Pads.size()));
  std::vector<std::string> Lim;
  for (const ConvPad &P : C.Pads)
    Lim.push_back(cExpr(P.Extent));
  return {"  // Zero padding: in-bounds where 0 <= pk + pn < lim in each padded "
          "dimension.\n  rl::buffer<int64_t> rl_pk(static_cast<size_t>(rl_k * " +
              D + ")), rl_pn(static_cast<size_t>(rl_n * " + D + "));\n" +
              "  const int64_t rl_lim[] = {" + llvm::join(Lim, ", ") + "};\n",
          D + ", rl_pk.data(), rl_pn.data(), rl_lim"};
}

/// The product of the loops' trip counts, none negative.
std::string spaceSize(const ConvInfo &C, const std::vector<std::string> &IVs) {
  std::vector<std::string> F;
  for (const std::string &IV : IVs)
    F.push_back("std::max<int64_t>(0, " + cExpr(C.Extent.at(IV)) + ")");
  return F.empty() ? "1" : llvm::join(F, " * ");
}

/// The im2col view's extents (rl_m, rl_n, rl_k), its offset tables (rl_ak
/// and rl_bk over K, rl_bn and rl_cn over N) and its padding tables: the
/// preamble the f32 and the quantized implicit gemms share. \p PadFields
/// gets the gemm struct's padding fields (padTables).
std::string im2colTables(const ConvInfo &C, const ArgInfo *AO,
                         const ArgInfo *AI, const ArgInfo *AW,
                         std::string &PadFields) {
  std::string S = "  const int64_t rl_m = " + spaceSize(C, {C.M}) + ";\n";
  S += "  const int64_t rl_n = " + spaceSize(C, C.N) + ";\n";
  S += "  const int64_t rl_k = " + spaceSize(C, C.K) + ";\n";
  S += "  rl::buffer<int64_t> rl_ak(static_cast<size_t>(rl_k)), "
       "rl_bk(static_cast<size_t>(rl_k));\n"
       "  rl::buffer<int64_t> rl_bn(static_cast<size_t>(rl_n)), "
       "rl_cn(static_cast<size_t>(rl_n));\n";
  std::pair<std::string, std::string> Pad = padTables(C);
  S += Pad.first;
  PadFields = Pad.second;
  S += offsetTables(C, C.K, {{"rl_ak", {AW, &C.W}}, {"rl_bk", {AI, &C.In}}});
  S += offsetTables(C, C.N, {{"rl_bn", {AI, &C.In}}, {"rl_cn", {AO, &C.Out}}});
  return S;
}

llvm::Expected<std::string> emitConv(const Program &P, const ArgLayout &L,
                                     const std::vector<ArgInfo> &Extra,
                                     const std::string &Symbol) {
  const ConvPlan &M = *P.Conv;
  const ConvInfo &C = M.C;
  llvm::Expected<OperandArgs> Args =
      operandArgs(L, Extra, {C.Out.Array, C.In.Array, C.W.Array});
  if (!Args)
    return Args.takeError();
  const ArgInfo *AO = (*Args)[0], *AI = (*Args)[1], *AW = (*Args)[2];
  bool Wide = avx512Fits(M.MR, M.NR);
  std::string S =
      "// Micro-kernel path (roofline_gemm.h): " + C.kind() + " " + C.Out.Array + " " +
      (C.InitZero ? "=" : "+=") + " " + C.W.Array + " * im2col(" + C.In.Array +
      "), BLIS-style; the B panels are\n// gathered from " + C.In.Array +
      " through offset tables (no im2col buffer).\n// MC=" + num(M.MC) + " NC=" +
      num(M.NC) + " KC=" + num(M.KC) + "; register tile " + num(M.MR) + "x" + num(M.NR) +
      (Wide ? " (AVX-512 and portable)" : " (portable)") + ", 6x16 on AVX2" +
      (M.Parallel ? "; threads own columns of C (or share the M blocks when N is narrow)" : "") + ".\n";
  S += prologue(Symbol, L, Extra, {C.Out.Array, C.In.Array, C.W.Array},
                {C.Out.Array});
  S += pathPick(Wide ? "rl::isa::avx512, rl::isa::avx2, rl::isa::portable"
                     : "rl::isa::avx2, rl::isa::portable");
  S += "  // The im2col view: M = " + C.M + ", N = (" + llvm::join(C.N, ", ") +
       "), K = (" + llvm::join(C.K, ", ") +
       "); each\n  // operand's offset of a flattened N or K index.\n";
  std::string PadFields;
  S += im2colTables(C, AO, AI, AW, PadFields);
  // M's first value moves the bases; its stride stays in g.
  std::string M0 = cExpr(C.First.at(C.M));
  auto Base = [&](const ArgInfo &A, const ConvOperand &O) {
    std::string St = termStride(A, O, C.M);
    return M0 == "0" ? A.Name
                     : A.Name + " + " + parenthesized(M0) +
                           (St == "1" ? "" : " * " + parenthesized(St));
  };
  auto Stride = [&](const ArgInfo &A, const ConvOperand &O) {
    return termStride(A, O, C.M);
  };
  S += "  const rl::gemm::gathered g{rl_m, rl_n, rl_k,\n      " + Base(*AW, C.W) + ", " +
       Stride(*AW, C.W) + ", rl_ak.data(),\n      " + C.In.Array +
       ", rl_bk.data(), rl_bn.data(),\n      " + Base(*AO, C.Out) + ", " +
       Stride(*AO, C.Out) + ", rl_cn.data(), " +
       (C.InitZero ? "true" : "false") +
       (C.Pads.empty() ? "" : ",\n      " + PadFields) + "};\n";
  S += "  rl::gemm::sgemm<" + num(M.MR) + ", " + num(M.NR) + ">(rl_path, g, " +
       blocksOf(M.MC, M.NC, M.KC) + ", " + (M.Parallel ? "true" : "false") +
       ", rl::gemm::no_epi(), rl::gemm::no_block_epi());\n";
  return S + "}\n";
}

/// An int8 or bf16 convolution (quantize() of a convolution): the offset
/// tables of the f32 implicit gemm, and rl::gemm::qconvolve, which makes
/// the input's im2col copy and runs the quantized gemm on it.
llvm::Expected<std::string> emitQuantConv(const Program &P, const ArgLayout &L,
                                          const std::vector<ArgInfo> &Extra,
                                          const std::string &Symbol,
                                          const TileDefaults &T) {
  const ConvInfo &C = P.Conv->C;
  const QuantPlan &Q = *P.Quant;
  bool Int8 = Q.Precision == "int8";
  std::string WA = C.W.Array + (Int8 ? "_q" : "_bf16"), Ws = C.W.Array + "_scale";
  llvm::Expected<OperandArgs> Args = operandArgs(L, Extra, {C.Out.Array, C.In.Array, WA});
  if (!Args)
    return Args.takeError();
  const ArgInfo *AO = (*Args)[0], *AI = (*Args)[1], *AW = (*Args)[2];
  std::set<std::string> Used{C.Out.Array, C.In.Array, WA};
  std::string M0 = cExpr(C.First.at(C.M));
  auto Base = [&](const std::string &Name, const std::string &St) {
    return M0 == "0" ? Name
                     : Name + " + " + parenthesized(M0) + (St == "1" ? "" : " * " + parenthesized(St));
  };
  std::string Scale = "nullptr", ScaleStride = "0";
  if (Int8) {
    if (!findArg(L, Extra, Ws))
      return makeError("the scale '" + Ws + "' is not an argument");
    Used.insert(Ws);
    // A row scale is indexed by the output channel's value.
    Scale = Q.LGran == "row" ? Base(Ws, "1") : Ws;
    ScaleStride = Q.LGran == "row" ? "1" : "0";
  }
  std::string S =
      "// Micro-kernel path (roofline_gemm.h): " + Q.Precision + " " + C.kind() + " " +
      C.Out.Array + " " + (C.InitZero ? "=" : "+=") + " " + C.W.Array + " * im2col(" +
      C.In.Array + ").\n// " + WA + ": " + C.W.Array + " in " + Q.Precision +
      ", made once by the prepare entry" +
      (Int8 ? " (a scale per " + Q.LGran + ")" : "") + "; the im2col copy of " +
      C.In.Array + " made on each call\n// and " +
      (Int8 ? "quantized (a scale per tensor)" : "rounded to bf16") +
      " while the gemm packs it: the " + Q.Precision + " gemm's micro-kernels (" +
      (Int8 ? "vpdpbusd" : "vdpbf16ps") + ").\n";
  S += prologue(Symbol, L, Extra, Used, {C.Out.Array});
  S += pathPick(Int8 ? "rl::isa::amx, rl::isa::avx512vnni, rl::isa::avx512, "
                       "rl::isa::avx2, rl::isa::portable"
                     : "rl::isa::amx, rl::isa::avx512bf16, rl::isa::avx512, "
                       "rl::isa::portable");
  S += "  // The im2col view: M = " + C.M + ", N = (" + llvm::join(C.N, ", ") +
       "), K = (" + llvm::join(C.K, ", ") + ").\n";
  std::string PadFields;
  S += im2colTables(C, AO, AI, AW, PadFields);
  std::string WSt = termStride(*AW, C.W, C.M), OSt = termStride(*AO, C.Out, C.M);
  S += "  const rl::gemm::qconv g{rl_m, rl_n, rl_k,\n      " + Base(WA, WSt) + ", " + WSt +
       ", rl_ak.data(), " + Scale + ", " + ScaleStride + ",\n      " + C.In.Array +
       ", rl_bk.data(), rl_bn.data(),\n      " + Base(C.Out.Array, OSt) + ", " + OSt +
       ", rl_cn.data(), " + (C.InitZero ? "true" : "false") + ",\n      " +
       PadFields + "};\n";
  S += "  rl::gemm::qconvolve(rl_path, g, " + blocksOf(T.MC, T.NC, T.KC) + ", " +
       (Int8 ? "true" : "false") + ");\n";
  return S + "}\n";
}

//===----------------------------------------------------------------------===//
// gemv: f32, int8, bf16
//===----------------------------------------------------------------------===//

enum class GemvKind { F32, Int8, BF16 };

/// The head of rl_dot<R>_<Suffix>, an R-row f32 dot kernel for one ISA:
/// its signature, two accumulators per row, and the main loop, two vectors
/// of x a step. \p Pre is the intrinsics' prefix ("_mm512"), \p Lanes the
/// floats of a \p Vec.
std::string dotF32Head(int64_t R, const std::string &Target,
                       const std::string &Suffix, const std::string &Vec,
                       const std::string &Pre, int64_t Lanes) {
  std::string S = "__attribute__((target(\"" + Target +
                  "\"))) void rl_dot" + num(R) + "_" + Suffix +
                  "(int64_t K, const float *RL_RESTRICT a, int64_t lda,\n    "
                  "const float *RL_RESTRICT x, float *out) {\n";
  for (int64_t r = 0; r < R; ++r)
    S += "  " + Vec + " s" + num(r) + "a = " + Pre + "_setzero_ps(), s" +
         num(r) + "b = " + Pre + "_setzero_ps();\n";
  S += "  int64_t k = 0;\n  for (; k + " + num(2 * Lanes) +
       " <= K; k += " + num(2 * Lanes) + ") {\n    const " + Vec + " x0 = " +
       Pre + "_loadu_ps(x + k), x1 = " + Pre + "_loadu_ps(x + k + " +
       num(Lanes) + ");\n";
  for (int64_t r = 0; r < R; ++r)
    for (const char *Half : {"a", "b"}) {
      bool B = *Half == 'b';
      S += "    s" + num(r) + Half + " = " + Pre + "_fmadd_ps(" + Pre +
           "_loadu_ps(a + " + num(r) + " * lda + k" +
           (B ? " + " + num(Lanes) : std::string()) + "), x" + (B ? "1" : "0") +
           ", s" + num(r) + Half + ");\n";
    }
  return S;
}

/// R-row dot kernels: out[r] = sum_k a[r*lda + k] * x[k].
std::string dotF32(int64_t R) {
  std::string N = num(R);
  std::string S;
  // AVX-512: two accumulators per row, masked tail.
  S += dotF32Head(R, "avx512f", "avx512", "__m512", "_mm512", 16);
  S += "  }\n  for (; k < K; k += 16) {\n"
       "    const __mmask16 m = K - k >= 16 ? __mmask16(0xffff)\n"
       "                                    : __mmask16((1u << (K - k)) - 1);\n"
       "    const __m512 x0 = _mm512_maskz_loadu_ps(m, x + k);\n";
  for (int64_t r = 0; r < R; ++r)
    S += "    s" + num(r) + "a = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(m, a + " +
         num(r) + " * lda + k), x0, s" + num(r) + "a);\n";
  S += "  }\n";
  for (int64_t r = 0; r < R; ++r)
    S += "  out[" + num(r) + "] = rl::hsum(_mm512_add_ps(s" + num(r) +
         "a, s" + num(r) + "b));\n";
  S += "}\n\n";
  // AVX2.
  S += dotF32Head(R, "avx2,fma", "avx2", "__m256", "_mm256", 8);
  S += "  }\n  alignas(32) float t[8];\n";
  for (int64_t r = 0; r < R; ++r) {
    S += "  _mm256_store_ps(t, _mm256_add_ps(s" + num(r) + "a, s" + num(r) +
         "b));\n  out[" + num(r) +
         "] = ((t[0] + t[1]) + (t[2] + t[3])) + ((t[4] + t[5]) + (t[6] + "
         "t[7]));\n  for (int64_t p = k; p < K; ++p)\n    out[" +
         num(r) + "] += a[" + num(r) + " * lda + p] * x[p];\n";
  }
  S += "}\n#endif\n\n";
  // Portable: vector extensions.
  S += "void rl_dot" + N +
       "_portable(int64_t K, const float *RL_RESTRICT a, int64_t lda,\n    "
       "const float *RL_RESTRICT x, float *out) {\n"
       "  typedef float v8 __attribute__((vector_size(32)));\n";
  for (int64_t r = 0; r < R; ++r)
    S += "  v8 s" + num(r) + " = {};\n";
  S += "  int64_t k = 0;\n  for (; k + 8 <= K; k += 8) {\n    v8 xv, av;\n"
       "    std::memcpy(&xv, x + k, sizeof xv);\n";
  for (int64_t r = 0; r < R; ++r)
    S += "    std::memcpy(&av, a + " + num(r) +
         " * lda + k, sizeof av);\n    s" + num(r) + " += av * xv;\n";
  S += "  }\n";
  for (int64_t r = 0; r < R; ++r)
    S += "  out[" + num(r) + "] = ((s" + num(r) + "[0] + s" + num(r) +
         "[1]) + (s" + num(r) + "[2] + s" + num(r) + "[3])) + ((s" + num(r) +
         "[4] + s" + num(r) + "[5]) + (s" + num(r) + "[6] + s" + num(r) +
         "[7]));\n  for (int64_t p = k; p < K; ++p)\n    out[" + num(r) +
         "] += a[" + num(r) + " * lda + p] * x[p];\n";
  S += "}\n\n";
  return S;
}

/// int8: out[r] = sum_k a[r*lda + k] * xq[k] in int32; ux = |xq|, neg: the
/// sign bits of xq per 64 k (the sign moves onto a: vpdpbusd takes one
/// unsigned operand).
std::string dotI8(int64_t R) {
  std::string N = num(R);
  std::string S;
  auto Head = [&](const std::string &Name, const std::string &Target) {
    return "__attribute__((target(\"" + Target + "\"))) void rl_qdot" + N +
           "_" + Name +
           "(int64_t K, const signed char *RL_RESTRICT a,\n    int64_t lda, "
           "const signed char *RL_RESTRICT xq, const unsigned char "
           "*RL_RESTRICT ux,\n    const unsigned long long *RL_RESTRICT neg, "
           "int *out) {\n";
  };
  for (int Vnni = 1; Vnni >= 0; --Vnni) {
    S += Head(Vnni ? "vnni" : "avx512bw",
              Vnni ? "avx512f,avx512bw,avx512vnni" : "avx512f,avx512bw");
    S += "  (void)xq;\n  const __m512i zero = _mm512_setzero_si512();\n";
    if (!Vnni)
      S += "  const __m512i ones = _mm512_set1_epi16(1);\n";
    auto Dot = [&](const std::string &Acc, const std::string &U,
                   const std::string &V) {
      return Vnni ? Acc + " = _mm512_dpbusd_epi32(" + Acc + ", " + U + ", " +
                        V + ");\n"
                  : Acc + " = _mm512_add_epi32(" + Acc +
                        ", _mm512_madd_epi16(_mm512_maddubs_epi16(" + U +
                        ", " + V + "), ones));\n";
    };
    // One row's 64 k: load (masked by Ld, or not), move x's signs onto
    // it, accumulate.
    auto Row = [&](int64_t r, const std::string &Acc, const std::string &Off,
                   const std::string &Ld, const std::string &U,
                   const std::string &Neg) {
      std::string V = "v" + num(r);
      std::string Ptr = "a + " + num(r) + " * lda + k" + Off;
      return "    {\n      __m512i " + V + " = " +
             (Ld.empty() ? "_mm512_loadu_si512(" + Ptr + ")"
                         : "_mm512_maskz_loadu_epi8(" + Ld + ", " + Ptr + ")") +
             ";\n      " + V + " = _mm512_mask_sub_epi8(" + V + ", " + Neg +
             ", zero, " + V + ");\n      " + Dot(Acc, U, V) + "    }\n";
    };
    for (int64_t r = 0; r < R; ++r)
      S += "  __m512i s" + num(r) + " = zero, t" + num(r) + " = zero;\n";
    // Whole 128-byte steps without masks, two accumulators a row (the
    // masked one-chunk loop alone ran at 3/4 of the f32 kernel's bytes/s);
    // then the rest, 64 at a time, masked.
    S += "  int64_t k = 0, c = 0;\n"
         "  for (; k + 128 <= K; k += 128, c += 2) {\n"
         "    const __m512i u0 = _mm512_loadu_si512(ux + k);\n"
         "    const __m512i u1 = _mm512_loadu_si512(ux + k + 64);\n"
         "    const __mmask64 m0 = neg[c], m1 = neg[c + 1];\n";
    for (int64_t r = 0; r < R; ++r)
      S += Row(r, "s" + num(r), "", "", "u0", "m0") +
           Row(r, "t" + num(r), " + 64", "", "u1", "m1");
    S += "  }\n"
         "  for (; k < K; k += 64, ++c) {\n"
         "    const __mmask64 ld = K - k >= 64 ? ~0ull : (1ull << (K - k)) - 1;\n"
         "    const __m512i u = _mm512_maskz_loadu_epi8(ld, ux + k);\n"
         "    const __mmask64 m = neg[c];\n";
    for (int64_t r = 0; r < R; ++r)
      S += Row(r, "s" + num(r), "", "ld", "u", "m");
    S += "  }\n";
    for (int64_t r = 0; r < R; ++r)
      S += "  out[" + num(r) + "] = rl::hsum(_mm512_add_epi32(s" + num(r) +
           ", t" + num(r) + "));\n";
    S += "}\n\n";
  }
  S += Head("avx2", "avx2");
  S += "  (void)ux;\n  (void)neg;\n  const __m256i ones = _mm256_set1_epi16(1);\n";
  for (int64_t r = 0; r < R; ++r)
    S += "  __m256i s" + num(r) + " = _mm256_setzero_si256();\n";
  S += "  int64_t k = 0;\n  for (; k + 32 <= K; k += 32) {\n"
       "    const __m256i x = _mm256_loadu_si256(reinterpret_cast<const "
       "__m256i *>(xq + k));\n    const __m256i u = _mm256_abs_epi8(x);\n";
  for (int64_t r = 0; r < R; ++r)
    S += "    s" + num(r) +
         " = _mm256_add_epi32(s" + num(r) +
         ", _mm256_madd_epi16(_mm256_maddubs_epi16(u, "
         "_mm256_sign_epi8(_mm256_loadu_si256(reinterpret_cast<const __m256i "
         "*>(a + " +
         num(r) + " * lda + k)), x)), ones));\n";
  S += "  }\n  alignas(32) int t[8];\n";
  for (int64_t r = 0; r < R; ++r)
    S += "  _mm256_store_si256(reinterpret_cast<__m256i *>(t), s" + num(r) +
         ");\n  out[" + num(r) +
         "] = t[0] + t[1] + t[2] + t[3] + t[4] + t[5] + t[6] + t[7];\n"
         "  for (int64_t p = k; p < K; ++p)\n    out[" +
         num(r) + "] += int(a[" + num(r) + " * lda + p]) * int(xq[p]);\n";
  S += "}\n#endif\n\n";
  S += "void rl_qdot" + N +
       "_portable(int64_t K, const signed char *RL_RESTRICT a, int64_t lda,\n"
       "    const signed char *RL_RESTRICT xq, const unsigned char *, const "
       "unsigned long long *,\n    int *out) {\n";
  for (int64_t r = 0; r < R; ++r)
    S += "  int s" + num(r) + " = 0;\n";
  S += "  for (int64_t k = 0; k < K; ++k) {\n    const int x = xq[k];\n";
  for (int64_t r = 0; r < R; ++r)
    S += "    s" + num(r) + " += int(a[" + num(r) + " * lda + k]) * x;\n";
  S += "  }\n";
  for (int64_t r = 0; r < R; ++r)
    S += "  out[" + num(r) + "] = s" + num(r) + ";\n";
  return S + "}\n\n";
}

/// bf16: out[r] = sum_k float(a[r*lda + k]) * float(x[k]) in f32.
std::string dotBF16(int64_t R) {
  std::string N = num(R);
  std::string S;
  S += "__attribute__((target(\"avx512f,avx512bw,avx512bf16\"))) void rl_bdot" +
       N +
       "_bf16(int64_t K, const rl::bf16 *RL_RESTRICT a,\n    int64_t lda, const "
       "rl::bf16 *RL_RESTRICT x, float *out) {\n";
  for (int64_t r = 0; r < R; ++r)
    S += "  __m512 s" + num(r) + " = _mm512_setzero_ps();\n";
  S += "  for (int64_t k = 0; k < K; k += 32) {\n"
       "    const __mmask32 ld = K - k >= 32 ? ~0u : (1u << (K - k)) - 1;\n"
       "    const __m512i xv = _mm512_maskz_loadu_epi16(ld, x + k);\n";
  for (int64_t r = 0; r < R; ++r)
    S += "    s" + num(r) + " = _mm512_dpbf16_ps(s" + num(r) +
         ", (__m512bh)_mm512_maskz_loadu_epi16(ld, a + " + num(r) +
         " * lda + k), (__m512bh)xv);\n";
  S += "  }\n";
  for (int64_t r = 0; r < R; ++r)
    S += "  out[" + num(r) + "] = rl::hsum(s" + num(r) + ");\n";
  S += "}\n\n";
  S += "__attribute__((target(\"avx512f,avx512bw,avx512vl\"))) void rl_bdot" + N +
       "_avx512(int64_t K, const rl::bf16 *RL_RESTRICT a,\n    int64_t lda, "
       "const rl::bf16 *RL_RESTRICT x, float *out) {\n";
  for (int64_t r = 0; r < R; ++r)
    S += "  __m512 s" + num(r) + " = _mm512_setzero_ps();\n";
  S += "  for (int64_t k = 0; k < K; k += 16) {\n"
       "    const __mmask16 ld = K - k >= 16 ? __mmask16(0xffff) : "
       "__mmask16((1u << (K - k)) - 1);\n"
       "    // maskz forms: GCC 12's plain ones warn inside its own headers.\n"
       "    const __m512 xv = _mm512_castsi512_ps(_mm512_maskz_slli_epi32(\n"
       "        __mmask16(0xffff), _mm512_maskz_cvtepu16_epi32(__mmask16(0xffff),\n"
       "        _mm256_maskz_loadu_epi16(ld, x + k)), 16));\n";
  for (int64_t r = 0; r < R; ++r)
    S += "    s" + num(r) +
         " = _mm512_fmadd_ps(_mm512_castsi512_ps(_mm512_maskz_slli_epi32(\n"
         "        __mmask16(0xffff), _mm512_maskz_cvtepu16_epi32(__mmask16(0xffff),\n"
         "        _mm256_maskz_loadu_epi16(ld, a + " +
         num(r) + " * lda + k)), 16)), xv, s" + num(r) + ");\n";
  S += "  }\n";
  for (int64_t r = 0; r < R; ++r)
    S += "  out[" + num(r) + "] = rl::hsum(s" + num(r) + ");\n";
  S += "}\n#endif\n\n";
  S += "void rl_bdot" + N +
       "_portable(int64_t K, const rl::bf16 *RL_RESTRICT a, int64_t lda,\n    "
       "const rl::bf16 *RL_RESTRICT x, float *out) {\n";
  for (int64_t r = 0; r < R; ++r)
    S += "  float s" + num(r) + " = 0;\n";
  S += "  for (int64_t k = 0; k < K; ++k) {\n    const float xv = x[k];\n";
  for (int64_t r = 0; r < R; ++r)
    S += "    s" + num(r) + " += float(a[" + num(r) + " * lda + k]) * xv;\n";
  S += "  }\n";
  for (int64_t r = 0; r < R; ++r)
    S += "  out[" + num(r) + "] = s" + num(r) + ";\n";
  return S + "}\n\n";
}

/// The names a gemv micro-kernel's pieces share.
struct GemvParts {
  GemvKind Kind;
  int64_t R;          ///< rows per block
  std::string LA, RA; ///< the operands the kernel reads (_q, _bf16 copies)
  std::string Ls, Rs; ///< int8: the operands' scales
  std::string Fam;    ///< the dot kernels' family (rl_dot, rl_qdot, rl_bdot)
  std::string Lda;    ///< A's row stride
  std::string Args;   ///< a block's dot-kernel arguments before rl_acc
};

/// The kernel's comment and its R-row and one-row dot kernels.
std::string gemvDotKernels(const ContractionInfo &C, const GemvParts &G,
                           bool Parallel) {
  std::string S = "// Micro-kernel path: " +
                  std::string(G.Kind == GemvKind::Int8   ? "int8 "
                              : G.Kind == GemvKind::BF16 ? "bf16 "
                                                         : "") +
                  "gemv " + C.Out.Array + " " + (C.InitZero ? "=" : "+=") +
                  " " + C.L.Array + " * " + C.R.Array + ", " + num(G.R) +
                  " rows at a time" + (Parallel ? ", rows in parallel" : "") +
                  ".\nnamespace {\n\n#if RL_X86\n";
  for (int64_t Rows : {G.R, int64_t(1)}) {
    if (Rows == 1 && G.R == 1)
      break;
    std::string D = G.Kind == GemvKind::Int8   ? dotI8(Rows)
                    : G.Kind == GemvKind::BF16 ? dotBF16(Rows)
                                               : dotF32(Rows);
    S += D;
    if (Rows == G.R && G.R != 1)
      S += "#if RL_X86\n";
  }
  return S + "} // namespace\n\n";
}

/// The entry's prologue and, for int8, the nests that quantize x (the
/// kernel quantizes it itself on every call).
llvm::Expected<std::string> gemvEntryPrologue(const Program &P,
                                              const ArgLayout &L,
                                              const std::vector<ArgInfo> &Extra,
                                              const std::string &Symbol,
                                              const ContractionInfo &C,
                                              const GemvParts &G) {
  std::set<std::string> Used{C.Out.Array, G.LA, G.RA}, Written{C.Out.Array};
  if (G.Kind == GemvKind::Int8) {
    Used.insert(G.Ls);
    Used.insert(G.Rs);
  }
  for (const Stmt &E : C.Epilogue)
    usedArrays(E, Used, Written);
  // The quantization prologue nests (the kernel quantizes x itself).
  std::string Pro;
  if (P.Quant)
    for (size_t I = 0; I + 1 < P.Nests.size(); ++I) {
      forEachStmt(P.Nests[I].Nest.Root,
                  [&](const Stmt &St, const std::vector<const Loop *> &) {
                    usedArrays(St, Used, Written);
                  });
      llvm::Expected<std::string> X = emitLoopCode(P.Nests[I], L, Extra, 1);
      if (!X)
        return X.takeError();
      Pro += *X;
    }
  return prologue(Symbol, L, Extra, Used, Written) + Pro;
}

/// The instruction sets a gemv of \p Kind has kernels for, best first.
std::string gemvPaths(GemvKind Kind) {
  return Kind == GemvKind::Int8
             ? "rl::isa::avx512vnni, rl::isa::avx512, rl::isa::avx2, "
               "rl::isa::portable"
         : Kind == GemvKind::BF16
             ? "rl::isa::avx512bf16, rl::isa::avx512, rl::isa::portable"
             : "rl::isa::avx512, rl::isa::avx2, rl::isa::portable";
}

/// int8: |x_q| and the sign bits of x_q per 64 k, once per call.
const char *const Int8XSplit =
    "  rl::buffer<unsigned char> rl_ux(static_cast<size_t>(rl_k + 64));\n"
    "  rl::buffer<unsigned long long> rl_neg(static_cast<size_t>(rl_k / "
    "64 + 1));\n"
    "  for (int64_t k = 0; k < rl_k; ++k) {\n"
    "    const int v = rl_x[k];\n"
    "    rl_ux.data()[k] = static_cast<unsigned char>(v < 0 ? -v : v);\n"
    "    if (v < 0)\n      rl_neg.data()[k / 64] |= 1ull << (k % 64);\n"
    "  }\n";

/// A row block's dot product on one instruction set (\p Suffix): the
/// R-row kernel for a full block, the one-row kernel per row of the last.
std::string gemvDispatch(const GemvParts &G, const std::string &Suffix,
                         const std::string &Ind) {
  return Ind + "if (rl_n == " + num(G.R) + ")\n" + Ind + "  " + G.Fam +
         num(G.R) + "_" + Suffix + "(" + G.Args + ", rl_acc);\n" + Ind +
         "else\n" + Ind + "  for (int64_t rl_r = 0; rl_r < rl_n; ++rl_r)\n" +
         Ind + "    " + G.Fam + (G.R == 1 ? num(G.R) : "1") + "_" + Suffix +
         "(rl_k, rl_a + " + "(rl_ib + rl_r) * " + parenthesized(G.Lda) + ", " + G.Lda +
         ", rl_x" +
         (G.Kind == GemvKind::Int8 ? ", rl_ux.data(), rl_neg.data()" : "") +
         ", rl_acc + rl_r);\n";
}

/// The switch over the picked instruction set around gemvDispatch.
std::string gemvSwitch(const GemvParts &G) {
  std::string S = "    switch (rl_path) {\n#if RL_X86\n";
  if (G.Kind == GemvKind::Int8) {
    S += "    case rl::isa::avx512vnni:\n" + gemvDispatch(G, "vnni", "      ") +
         "      break;\n    case rl::isa::avx512:\n" +
         gemvDispatch(G, "avx512bw", "      ") +
         "      break;\n    case rl::isa::avx2:\n" +
         gemvDispatch(G, "avx2", "      ") + "      break;\n";
  } else if (G.Kind == GemvKind::BF16) {
    S += "    case rl::isa::avx512bf16:\n" + gemvDispatch(G, "bf16", "      ") +
         "      break;\n    case rl::isa::avx512:\n" +
         gemvDispatch(G, "avx512", "      ") + "      break;\n";
  } else {
    S += "    case rl::isa::avx512:\n" + gemvDispatch(G, "avx512", "      ") +
         "      break;\n    case rl::isa::avx2:\n" +
         gemvDispatch(G, "avx2", "      ") + "      break;\n";
  }
  return S + "#endif\n    default:\n" + gemvDispatch(G, "portable", "      ") +
         "      break;\n    }\n";
}

/// The store of a row block's sums into y (int8: times the scales).
std::string gemvStore(const Program &P, const ContractionInfo &C,
                      const GemvParts &G, const std::string &Ym,
                      const std::string &Ind) {
  std::string LsIdx, RsIdx = G.Rs + "[0]";
  if (G.Kind == GemvKind::Int8)
    LsIdx = P.Quant->LGran == "row" ? G.Ls + "[" +
                                          parenthesized(cExpr(C.First.at(C.M))) +
                                          " + rl_ib + rl_r]"
                                    : G.Ls + "[0]";
  std::string V = G.Kind == GemvKind::Int8
                      ? "static_cast<float>(rl_acc[rl_r]) * " + LsIdx + " * " +
                            RsIdx
                      : "rl_acc[rl_r]";
  std::string Y = "rl_y[(rl_ib + rl_r) * " + parenthesized(Ym) + "]";
  return Ind + "for (int64_t rl_r = 0; rl_r < rl_n; ++rl_r)\n" + Ind + "  " +
         Y + (C.InitZero ? " = " : " += ") + V + ";\n";
}

llvm::Expected<std::string> emitGemv(const Program &P, const ArgLayout &L,
                                     const std::vector<ArgInfo> &Extra,
                                     const std::string &Symbol, GemvKind Kind) {
  const ContractionInfo &C = P.Quant ? P.Quant->C : P.Micro->C;
  GemvParts G;
  G.Kind = Kind;
  G.R = P.Micro ? P.Micro->MR : 4;
  bool Parallel = P.Micro ? P.Micro->Parallel : false;
  if (P.Quant)
    for (const KernelNest &K : P.Nests)
      for (const auto &[IV, A] : K.Attrs)
        Parallel |= A.Parallel && IV == C.M;
  G.LA = C.L.Array;
  G.RA = C.R.Array;
  if (Kind == GemvKind::Int8) {
    G.LA += "_q";
    G.RA += "_q";
    G.Ls = C.L.Array + "_scale";
    G.Rs = C.R.Array + "_scale";
  } else if (Kind == GemvKind::BF16) {
    G.LA += "_bf16";
    G.RA += "_bf16";
  }
  const ArgInfo *AO = findArg(L, Extra, C.Out.Array), *AL = findArg(L, Extra, G.LA),
                *AR = findArg(L, Extra, G.RA);
  if (!AO || !AL || !AR)
    return makeError("gemv operands are not arguments");
  Operand OL{G.LA, C.L.Dims}, OR{G.RA, C.R.Dims};
  G.Lda = strideOf(*AL, OL, C.M);
  std::string Ym = strideOf(*AO, C.Out, C.M);
  G.Fam = Kind == GemvKind::Int8   ? "rl_qdot"
          : Kind == GemvKind::BF16 ? "rl_bdot"
                                   : "rl_dot";

  std::string S = gemvDotKernels(C, G, Parallel);
  llvm::Expected<std::string> Pro =
      gemvEntryPrologue(P, L, Extra, Symbol, C, G);
  if (!Pro)
    return Pro.takeError();
  S += *Pro;
  S += "  static const rl::isa rl_path = rl::pick({" + gemvPaths(Kind) + "});\n";
  std::string Mext = cExpr(C.Extent.at(C.M)), Kext = cExpr(C.Extent.at(C.K));
  std::string Off = baseOffset(*AL, OL, C), XOff = baseOffset(*AR, OR, C),
              YOff = baseOffset(*AO, C.Out, C);
  S += "  const int64_t rl_m = " + Mext + ", rl_k = " + Kext + ";\n";
  S += "  const auto *rl_a = " + G.LA + (Off == "0" ? "" : " + " + parenthesized(Off)) +
       ";\n  const auto *rl_x = " + G.RA +
       (XOff == "0" ? "" : " + " + parenthesized(XOff)) + ";\n  auto *rl_y = " +
       C.Out.Array + (YOff == "0" ? "" : " + " + parenthesized(YOff)) + ";\n";
  G.Args = "rl_k, rl_a + rl_ib * " + parenthesized(G.Lda) + ", " + G.Lda + ", rl_x";
  if (Kind == GemvKind::Int8) {
    S += Int8XSplit;
    G.Args += ", rl_ux.data(), rl_neg.data()";
  }
  std::string AccT = Kind == GemvKind::Int8 ? "int" : "float";
  // The row block and the store (with the scales for int8).
  llvm::Expected<std::string> Epi = epilogueCode(C, L, Extra, 2);
  if (!Epi)
    return Epi.takeError();
  S += Parallel ? "  RL_OMP(parallel for schedule(static))\n" : "";
  S += "  for (int64_t rl_ib = 0; rl_ib < rl_m; rl_ib += " + num(G.R) + ") {\n" +
       "    const int64_t rl_n = std::min<int64_t>(" + num(G.R) +
       ", rl_m - rl_ib);\n    " + AccT + " rl_acc[" + num(G.R) + "];\n";
  S += gemvSwitch(G);
  S += gemvStore(P, C, G, Ym, "    ");
  if (!Epi->empty())
    S += "    {\n      const int64_t rl_i0 = " + parenthesized(cExpr(C.First.at(C.M))) +
         " + rl_ib, rl_mi = rl_n;\n" + *Epi + "    }\n";
  S += "  }\n}\n";
  return S;
}

} // namespace

std::string roofline::microKernelKind(const Program &P, const ArgLayout &L,
                                      std::string *Why) {
  auto No = [&](const std::string &W) {
    if (Why)
      *Why = W;
    return std::string();
  };
  if (P.Conv)
    return P.Quant ? P.Quant->Precision + " implicit gemm" : "implicit gemm";
  if (P.Micro) {
    const ContractionInfo &C = P.Micro->C;
    if (C.isGemm())
      return "gemm";
    const ArgInfo *AL = L.find(C.L.Array), *AR = L.find(C.R.Array);
    if (!AL || !AR)
      return No("operands are not arguments");
    if (strideOf(*AL, C.L, C.K) != "1" || strideOf(*AR, C.R, C.K) != "1")
      return No("the reduction is not contiguous in both operands");
    return "gemv";
  }
  if (P.Quant && P.Quant->C.isGemv()) {
    const ContractionInfo &C = P.Quant->C;
    for (const TransformRecord &R : P.Applied.Records)
      if (R.Kind != TransformRecord::Quantize &&
          !(R.Kind == TransformRecord::Parallel && R.Names[0] == C.M))
        return No("records after quantize take the generic path");
    const ArgInfo *AL = L.find(C.L.Array), *AR = L.find(C.R.Array);
    if (!AL || !AR)
      return No("operands are not arguments");
    if (strideOf(*AL, C.L, C.K) != "1" || strideOf(*AR, C.R, C.K) != "1")
      return No("the reduction is not contiguous in both operands");
    return P.Quant->Precision + " gemv";
  }
  if (P.Quant && P.Quant->C.isGemm()) {
    const ContractionInfo &C = P.Quant->C;
    if (!C.Batch.empty())
      return No("a batched quantized gemm takes the generic path");
    for (const TransformRecord &R : P.Applied.Records)
      if (R.Kind != TransformRecord::Quantize)
        return No("records after quantize take the generic path");
    return P.Quant->Precision + " gemm";
  }
  return No(P.Quant ? "quantized " + P.Quant->C.kind() +
                          " takes the generic path"
                    : "no micro-kernel schedule");
}

bool roofline::usesGemmRuntime(const std::string &Kind) {
  return Kind == "gemm" || Kind == "implicit gemm" || Kind == "int8 gemm" ||
         Kind == "bf16 gemm" || Kind == "int8 implicit gemm" ||
         Kind == "bf16 implicit gemm";
}

llvm::Expected<std::string>
roofline::emitMicroKernel(const Program &P, const ArgLayout &L,
                          const std::vector<ArgInfo> &Extra,
                          const std::string &Symbol) {
  std::string Kind = microKernelKind(P, L);
  if (Kind == "gemm")
    return emitGemm(P, L, Extra, Symbol);
  if (Kind == "implicit gemm")
    return emitConv(P, L, Extra, Symbol);
  if (Kind == "int8 implicit gemm" || Kind == "bf16 implicit gemm")
    return emitQuantConv(P, L, Extra, Symbol, TileDefaults());
  if (Kind == "gemv")
    return emitGemv(P, L, Extra, Symbol, GemvKind::F32);
  if (Kind == "int8 gemv")
    return emitGemv(P, L, Extra, Symbol, GemvKind::Int8);
  if (Kind == "bf16 gemv")
    return emitGemv(P, L, Extra, Symbol, GemvKind::BF16);
  if (Kind == "int8 gemm" || Kind == "bf16 gemm")
    return emitQuantGemm(P, L, Extra, Symbol, TileDefaults());
  return makeError("no micro-kernel for this program");
}
