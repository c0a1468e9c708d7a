//===- Baseline.cpp - Library baselines timed beside the variants ---------===//

#include "roofline/Runner/Baseline.h"

#include "llvm/Support/FormatVariadic.h"

#include <optional>

using namespace roofline;

namespace {

/// How BLAS sees one matrix operand X(row, col) under a storage order:
/// its transpose flag and leading dimension, or nothing when neither
/// stride is 1.
struct MatrixView {
  bool Ok = false, Trans = false;
  std::string Ld;
};

MatrixView viewOf(const ContractionOperand &X, const std::string &Row,
                  const std::string &Col, bool RowMajor) {
  auto S = [&](const std::string &Role) {
    auto It = X.Strides.find(Role);
    return It == X.Strides.end() ? std::string() : It->second;
  };
  std::string SR = S(Row), SC = S(Col);
  MatrixView V;
  if (SR.empty() || SC.empty())
    return V;
  // Row-major X[r*ld + c] is NoTrans; X[r + c*ld] is its transpose.
  const std::string &Unit = RowMajor ? SC : SR;
  const std::string &Other = RowMajor ? SR : SC;
  if (Unit == "1") {
    V = {true, false, Other};
  } else if (Other == "1") {
    V = {true, true, Unit};
  }
  return V;
}

int argIndex(const UnitManifest &M, const std::string &Name) {
  for (size_t I = 0; I < M.Args.size(); ++I)
    if (M.Args[I].Name == Name && !M.Args[I].Scalar)
      return static_cast<int>(I);
  return -1;
}

} // namespace

namespace {

/// What any library call on the unit's arguments needs: a gemm or gemv,
/// f32 or f64, not batched, no epilogue, loops from 0, known extents; the
/// operands' argument indices, L the one indexed by M.
struct Roles {
  bool Gemm = false;
  std::string P, T; ///< "s"/"d", "float"/"double"
  const ManifestContraction *C = nullptr;
  ContractionOperand L, R;
  int IO = -1, IL = -1, IR = -1;
  std::string Beta;
};

std::string strideFor(const ContractionOperand &X, const char *Role) {
  auto It = X.Strides.find(Role);
  return It == X.Strides.end() ? std::string() : It->second;
}

std::optional<Roles> rolesOf(const UnitManifest &M, std::string &WhyNot) {
  if (!M.Contraction) {
    WhyNot = "not a contraction (gemm, gemv)";
    return std::nullopt;
  }
  const ManifestContraction &C = *M.Contraction;
  if (C.Batch) {
    WhyNot = "batched contraction (no single BLAS call)";
    return std::nullopt;
  }
  if (C.Epilogue) {
    WhyNot = "has an epilogue BLAS does not compute";
    return std::nullopt;
  }
  Roles B;
  B.C = &C;
  B.Gemm = C.Kind == "gemm";
  if (!B.Gemm && C.Kind != "gemv") {
    WhyNot = "a " + C.Kind + " (only gemm and gemv have a baseline)";
    return std::nullopt;
  }
  B.T = C.Elem == "f32" ? "float" : C.Elem == "f64" ? "double" : "";
  if (B.T.empty()) {
    WhyNot = C.Elem + " operands (BLAS has f32 and f64)";
    return std::nullopt;
  }
  B.P = C.Elem == "f32" ? "s" : "d";
  for (const auto &[Role, First] : C.First)
    if (First != "0") {
      WhyNot = "loop " + Role + " starts at " + First + ", not 0";
      return std::nullopt;
    }
  std::vector<std::string> Names = {"m", "k"};
  if (B.Gemm)
    Names.push_back("n");
  for (const std::string &R : Names)
    if (!C.Extent.count(R) || C.Extent.at(R).empty()) {
      WhyNot = "the " + R + " extent is unknown";
      return std::nullopt;
    }
  B.L = C.L;
  B.R = C.R;
  auto Has = [](const ContractionOperand &X, const char *Role) {
    std::string S = strideFor(X, Role);
    return !S.empty() && S != "0";
  };
  if (!Has(B.L, "m") && Has(B.R, "m"))
    std::swap(B.L, B.R);
  B.IO = argIndex(M, C.Out.Array);
  B.IL = argIndex(M, B.L.Array);
  B.IR = argIndex(M, B.R.Array);
  if (B.IO < 0 || B.IL < 0 || B.IR < 0) {
    WhyNot = "an operand is not an argument of the unit";
    return std::nullopt;
  }
  B.Beta = C.InitZero ? "0" : "1";
  return B;
}

/// One BLAS call on the unit's arguments, as CBLAS sees it (row- or
/// column-major, transposes, leading dimensions as C expressions).
struct BlasPlan : Roles {
  bool RowMajor = true, TransL = false, TransR = false;
  std::string DimM, DimN, DimK, LdL, LdR, Ldc; ///< gemm
  std::string Rows, Cols, IncX, IncY;          ///< gemv (row-major matrix)
};

std::optional<BlasPlan> planBlas(const UnitManifest &M, std::string &WhyNot) {
  std::optional<Roles> Ro = rolesOf(M, WhyNot);
  if (!Ro)
    return std::nullopt;
  BlasPlan B;
  static_cast<Roles &>(B) = *Ro;
  const ManifestContraction &C = *B.C;
  const ContractionOperand &L = B.L, &R = B.R;
  auto S = strideFor;
  if (B.Gemm) {
    if (S(C.Out, "n") == "1") {
      B.RowMajor = true;
      B.Ldc = S(C.Out, "m");
    } else if (S(C.Out, "m") == "1") {
      B.RowMajor = false;
      B.Ldc = S(C.Out, "n");
    } else {
      WhyNot = "the output has no unit stride";
      return std::nullopt;
    }
    MatrixView VL = viewOf(L, "m", "k", B.RowMajor),
               VR = viewOf(R, "k", "n", B.RowMajor);
    if (!VL.Ok || !VR.Ok || B.Ldc.empty()) {
      WhyNot = "an operand has no unit stride";
      return std::nullopt;
    }
    B.TransL = VL.Trans;
    B.TransR = VR.Trans;
    B.LdL = VL.Ld;
    B.LdR = VR.Ld;
    B.DimM = C.Extent.at("m");
    B.DimN = C.Extent.at("n");
    B.DimK = C.Extent.at("k");
    return B;
  }
  MatrixView VL = viewOf(L, "m", "k", true);
  B.IncX = S(R, "k");
  B.IncY = S(C.Out, "m");
  if (!VL.Ok || B.IncX.empty() || B.IncY.empty() || B.IncX == "0" ||
      B.IncY == "0") {
    WhyNot = "an operand has no unit stride";
    return std::nullopt;
  }
  // Row-major A(m, k) is NoTrans with rows m; stored transposed it is a
  // k x m matrix used transposed.
  B.TransL = VL.Trans;
  B.LdL = VL.Ld;
  B.Rows = VL.Trans ? C.Extent.at("k") : C.Extent.at("m");
  B.Cols = VL.Trans ? C.Extent.at("m") : C.Extent.at("k");
  return B;
}

std::string ptrTo(const Roles &B, const char *Args, int I, bool Const) {
  return "static_cast<" + std::string(Const ? "const " : "") + B.T + " *>(" +
         Args + "[" + std::to_string(I) + "])";
}

std::string sizeDecls(const UnitManifest &M) {
  std::string Code;
  for (size_t I = 0; I < M.Sizes.size(); ++I)
    Code += "  const int64_t " + M.Sizes[I].Name + " = rl_s[" +
            std::to_string(I) + "];\n  (void)" + M.Sizes[I].Name + ";\n";
  if (M.Sizes.empty())
    Code += "  (void)rl_s;\n";
  return Code;
}

/// The naive variant's tolerance: the library is checked like a variant.
std::string tolerance(const UnitManifest &M, const Roles &B) {
  const ManifestVariant *Naive = M.find("naive");
  double RTol = Naive ? Naive->RTol : 0,
         PerTerm = Naive ? Naive->RTolPerTerm : (B.P == "s" ? 2.4e-7 : 4.5e-16),
         ATol = Naive ? Naive->ATol : 1e-30;
  return llvm::formatv("  V.tol = {{{0:e}, {1:e}, {2:e}};\n", RTol, PerTerm, ATol)
      .str();
}

size_t elemBytes(const std::string &Elem) {
  if (Elem == "f64" || Elem == "i64" || Elem == "u64")
    return 8;
  if (Elem == "bf16" || Elem == "f16" || Elem == "i16")
    return 2;
  if (Elem == "i8" || Elem == "u8")
    return 1;
  return 4;
}

/// The harness hook that registers a CPU library's call `rl_baseline` as
/// variant \p Name; \p Setup runs first (before any library call),
/// \p Library is the expression of the kernel it reports.
std::string registration(const UnitManifest &M, const Roles &P, const std::string &Name,
                         const std::string &Setup, const std::string &Library) {
  return "extern \"C\" void rl_harness_extra_variants(rl::harness::unit_desc *U) {\n" +
         Setup + "  rl::harness::variant_desc V;\n  V.name = \"" + Name +
         "\";\n  V.fn = rl_baseline;\n  V.prepare = nullptr;\n  V.library = " + Library +
         ";\n" + tolerance(M, P) + "  U->variants.push_back(V);\n}\n";
}

} // namespace

BaselineSource roofline::blasBaseline(const UnitManifest &M) {
  BaselineSource B;
  B.Name = "openblas";
  std::optional<BlasPlan> P = planBlas(M, B.WhyNot);
  if (!P)
    return B;
  auto Ptr = [&](int I, bool Const) { return ptrTo(*P, "rl_a", I, Const); };
  std::string Call;
  if (P->Gemm) {
    const char *Order = P->RowMajor ? "CblasRowMajor" : "CblasColMajor";
    Call = llvm::formatv("cblas_{0}gemm({1}, {2}, {3}, ({4}), ({5}), ({6}), 1, "
                         "{7}, ({8}), {9}, ({10}), {11}, {12}, ({13}))",
                         P->P, Order, P->TransL ? "CblasTrans" : "CblasNoTrans",
                         P->TransR ? "CblasTrans" : "CblasNoTrans", P->DimM,
                         P->DimN, P->DimK, Ptr(P->IL, true), P->LdL,
                         Ptr(P->IR, true), P->LdR, P->Beta, Ptr(P->IO, false),
                         P->Ldc)
               .str();
    B.Call = llvm::formatv("cblas_{0}gemm({1}, {2}, {3})", P->P,
                           P->RowMajor ? "RowMajor" : "ColMajor",
                           P->TransL ? "Trans" : "NoTrans",
                           P->TransR ? "Trans" : "NoTrans")
                 .str();
  } else {
    Call = llvm::formatv("cblas_{0}gemv(CblasRowMajor, {1}, ({2}), ({3}), 1, "
                         "{4}, ({5}), {6}, ({7}), {8}, {9}, ({10}))",
                         P->P, P->TransL ? "CblasTrans" : "CblasNoTrans",
                         P->Rows, P->Cols, Ptr(P->IL, true), P->LdL,
                         Ptr(P->IR, true), P->IncX, P->Beta, Ptr(P->IO, false),
                         P->IncY)
               .str();
    B.Call = llvm::formatv("cblas_{0}gemv(RowMajor, {1})", P->P,
                           P->TransL ? "Trans" : "NoTrans")
                 .str();
  }
  std::string Code =
      "// " + M.Unit + ": the OpenBLAS baseline (generated by roofline-run; "
      "do not edit).\n#include \"roofline_harness.h\"\n\n#include <cblas.h>\n\n"
      "// The kernel OpenBLAS picked for this CPU (its build's DYNAMIC_ARCH).\n"
      "extern \"C\" char *openblas_get_corename(void);\n\n"
      "namespace {\nvoid rl_baseline(void *const *rl_a, const int64_t *rl_s) {\n";
  Code += sizeDecls(M);
  Code += "  " + Call + ";\n}\n} // namespace\n\n";
  Code += registration(M, *P, "openblas", "", "openblas_get_corename()");
  B.Code = std::move(Code);
  return B;
}

BaselineSource roofline::blisBaseline(const UnitManifest &M) {
  BaselineSource B;
  B.Name = "blis";
  std::optional<Roles> P = rolesOf(M, B.WhyNot);
  if (!P)
    return B;
  // BLIS takes both strides of every operand (no transposes, no leading
  // dimensions); its typed API wants non-const pointers.
  auto Ptr = [&](int I, bool Const) {
    std::string X = ptrTo(*P, "rl_a", I, Const);
    return Const ? "const_cast<" + P->T + " *>(" + X + ")" : X;
  };
  auto St = [](const ContractionOperand &X, const char *Role) {
    return "(" + strideFor(X, Role) + ")";
  };
  const ManifestContraction &C = *P->C;
  for (const auto &[X, Need] :
       {std::pair<const ContractionOperand *, std::vector<const char *>>{
            &P->L, {"m", "k"}},
        {&P->R, {"k", "n"}},
        {&C.Out, {"m", "n"}}})
    for (const char *Role : Need) {
      if (!P->Gemm && std::string(Role) == "n")
        continue;
      std::string S = strideFor(*X, Role);
      if (S.empty() || S == "0") {
        B.WhyNot = "operand '" + X->Array + "' has no stride along " + Role;
        return B;
      }
    }
  std::string Call;
  if (P->Gemm) {
    Call = llvm::formatv("bli_{0}gemm(BLIS_NO_TRANSPOSE, BLIS_NO_TRANSPOSE, ({1}), ({2}), "
                         "({3}), &rl_one, {4}, {5}, {6}, {7}, {8}, {9}, &rl_beta, {10}, "
                         "{11}, {12})",
                         P->P, C.Extent.at("m"), C.Extent.at("n"), C.Extent.at("k"),
                         Ptr(P->IL, true), St(P->L, "m"), St(P->L, "k"),
                         Ptr(P->IR, true), St(P->R, "k"), St(P->R, "n"),
                         Ptr(P->IO, false), St(C.Out, "m"), St(C.Out, "n"))
               .str();
    B.Call = "bli_" + P->P + "gemm (general strides)";
  } else {
    Call = llvm::formatv("bli_{0}gemv(BLIS_NO_TRANSPOSE, BLIS_NO_CONJUGATE, ({1}), ({2}), "
                         "&rl_one, {3}, {4}, {5}, {6}, {7}, &rl_beta, {8}, {9})",
                         P->P, C.Extent.at("m"), C.Extent.at("k"), Ptr(P->IL, true),
                         St(P->L, "m"), St(P->L, "k"), Ptr(P->IR, true), St(P->R, "k"),
                         Ptr(P->IO, false), St(C.Out, "m"))
               .str();
    B.Call = "bli_" + P->P + "gemv (general strides)";
  }
  std::string Code =
      "// " + M.Unit + ": the BLIS baseline (generated by roofline-run; do not "
      "edit).\n#include \"roofline_harness.h\"\n\n#include <blis.h>\n\n#include <cstdlib>\n#include <cstring>\n#include <string>\n\n"
      "namespace {\nvoid rl_baseline(void *const *rl_a, const int64_t *rl_s) {\n";
  Code += sizeDecls(M);
  Code += "  " + P->T + " rl_one = 1, rl_beta = " + P->Beta + ";\n  " + Call +
          ";\n}\n} // namespace\n\n";
  Code += registration(
      M, *P, "blis",
      "  // RL_BLIS_ARCH names a sub-configuration to run instead of the one\n"
      "  // BLIS picks (BLIS_ARCH_TYPE wants its number, which differs between\n"
      "  // versions); read when BLIS initializes, so before any call.\n"
      "  if (const char *Want = std::getenv(\"RL_BLIS_ARCH\"))\n"
      "    for (int I = 0; I < BLIS_NUM_ARCHS; ++I)\n"
      "      if (std::strcmp(bli_arch_string(static_cast<arch_t>(I)), Want) == 0)\n"
      "        setenv(\"BLIS_ARCH_TYPE\", std::to_string(I).c_str(), 1);\n"
      "  bli_init();\n",
      "bli_arch_string(bli_arch_query_id())");
  B.Code = std::move(Code);
  return B;
}

BaselineSource roofline::cublasBaseline(const UnitManifest &M) {
  BaselineSource B;
  B.Name = "cublas";
  std::optional<BlasPlan> P = planBlas(M, B.WhyNot);
  if (!P)
    return B;
  auto Ptr = [&](int I, bool Const) { return ptrTo(*P, "rl_a", I, Const); };
  auto Op = [](bool Trans) { return Trans ? "CUBLAS_OP_T" : "CUBLAS_OP_N"; };
  std::string F = P->P == "s" ? "S" : "D";
  std::string Call;
  if (P->Gemm) {
    // cuBLAS is column-major: a row-major C = op(A) op(B) is the
    // column-major C^T = op(B)^T op(A)^T, the same buffers and flags with
    // the operands swapped.
    if (P->RowMajor)
      Call = llvm::formatv(
                 "cublas{0}gemm(rl_h, {1}, {2}, int({3}), int({4}), int({5}), "
                 "&rl_one, {6}, int({7}), {8}, int({9}), &rl_beta, {10}, int({11}))",
                 F, Op(P->TransR), Op(P->TransL), P->DimN, P->DimM, P->DimK,
                 Ptr(P->IR, true), P->LdR, Ptr(P->IL, true), P->LdL,
                 Ptr(P->IO, false), P->Ldc)
                 .str();
    else
      Call = llvm::formatv(
                 "cublas{0}gemm(rl_h, {1}, {2}, int({3}), int({4}), int({5}), "
                 "&rl_one, {6}, int({7}), {8}, int({9}), &rl_beta, {10}, int({11}))",
                 F, Op(P->TransL), Op(P->TransR), P->DimM, P->DimN, P->DimK,
                 Ptr(P->IL, true), P->LdL, Ptr(P->IR, true), P->LdR,
                 Ptr(P->IO, false), P->Ldc)
                 .str();
    B.Call = llvm::formatv("cublas{0}gemm({1}, {2}, {3})", F,
                           P->RowMajor ? "RowMajor" : "ColMajor",
                           P->TransL ? "Trans" : "NoTrans",
                           P->TransR ? "Trans" : "NoTrans")
                 .str();
  } else {
    // A row-major Rows x Cols matrix is a column-major Cols x Rows one:
    // the transpose flag flips.
    Call = llvm::formatv("cublas{0}gemv(rl_h, {1}, int({2}), int({3}), &rl_one, "
                         "{4}, int({5}), {6}, int({7}), &rl_beta, {8}, int({9}))",
                         F, Op(!P->TransL), P->Cols, P->Rows, Ptr(P->IL, true),
                         P->LdL, Ptr(P->IR, true), P->IncX, Ptr(P->IO, false),
                         P->IncY)
               .str();
    B.Call = llvm::formatv("cublas{0}gemv(RowMajor, {1})", F,
                           P->TransL ? "Trans" : "NoTrans")
                 .str();
  }
  // The bytes of each argument, for the copies to the device.
  std::string Bytes, Back;
  for (size_t I = 0; I < M.Args.size(); ++I) {
    const ManifestArg &A = M.Args[I];
    std::string N = "1";
    if (!A.Scalar)
      for (const std::string &E : A.Shape)
        N += " * int64_t(" + E + ")";
    Bytes += std::string(I ? ", " : "") + std::to_string(elemBytes(A.Elem)) +
             " * size_t(" + N + ")";
    Back += std::string(I ? ", " : "") + (A.Intent == "in" ? "false" : "true");
  }
  std::string NArgs = std::to_string(M.Args.size());
  std::string Code =
      "// " + M.Unit + ": the cuBLAS baseline (generated by roofline-run; do "
      "not edit).\n#include \"roofline_harness.h\"\n#include "
      "\"roofline_cuda_host.h\"\n\n#include <cublas_v2.h>\n\nnamespace {\n"
      "// One handle for the process, made in the untimed warm-up. The default\n"
      "// math mode: no TF32 for " + F + "GEMM (only CUBLAS_TF32_TENSOR_OP_MATH "
      "enables it).\ncublasHandle_t rl_handle() {\n"
      "  static cublasHandle_t H = [] {\n    cublasHandle_t X = nullptr;\n"
      "    if (cublasCreate(&X) != CUBLAS_STATUS_SUCCESS ||\n"
      "        cublasSetMathMode(X, CUBLAS_DEFAULT_MATH) != CUBLAS_STATUS_SUCCESS) {\n"
      "      std::fprintf(stderr, \"rl-cuda: cublasCreate failed\\n\");\n"
      "      std::exit(3);\n    }\n    return X;\n  }();\n  return H;\n}\n\n"
      "/// Device pointers.\nvoid rl_cublas_dev(void *const *rl_a, const int64_t *rl_s) {\n";
  Code += sizeDecls(M);
  Code += "  const " + P->T + " rl_one = 1, rl_beta = " + P->Beta +
          ";\n  cublasHandle_t rl_h = rl_handle();\n"
          "  cublasStatus_t rl_st = " + Call + ";\n"
          "  if (rl_st != CUBLAS_STATUS_SUCCESS) {\n"
          "    std::fprintf(stderr, \"rl-cuda: " + B.Call +
          ": status %d\\n\", int(rl_st));\n    std::exit(3);\n  }\n}\n\n";
  std::string BytesDecl = "  const size_t rl_bytes[] = {" + Bytes + "};\n";
  Code += "void rl_cublas_host(void *const *rl_a, const int64_t *rl_s) {\n" +
          sizeDecls(M) + BytesDecl + "  const bool rl_back[] = {" + Back +
          "};\n  rl::cuda::host_call(" + NArgs +
          ", rl_a, rl_bytes, rl_back, rl_s, rl_cublas_dev);\n}\n\n";
  Code += "int rl_cublas_time(void *const *const *rl_sets, int rl_nsets, const "
          "int64_t *rl_s, int rl_reps, double rl_min_time, double *rl_times, "
          "int rl_cap, int *rl_copies) {\n" +
          sizeDecls(M) + BytesDecl + "  return rl::cuda::host_time(" + NArgs +
          ", rl_sets, rl_nsets, rl_bytes, rl_s, rl_cublas_dev, rl_reps, "
          "rl_min_time, rl_times, rl_cap, rl_copies);\n}\n} // namespace\n\n";
  Code += "extern \"C\" void rl_harness_extra_variants(rl::harness::unit_desc *U) {\n"
          "  rl::harness::variant_desc V;\n  V.name = \"cublas\";\n"
          "  V.fn = rl_cublas_host;\n  V.prepare = nullptr;\n"
          "  V.timer = rl_cublas_time;\n";
  Code += tolerance(M, *P);
  Code += "  U->variants.push_back(V);\n}\n";
  B.Code = std::move(Code);
  return B;
}
