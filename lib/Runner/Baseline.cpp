//===- Baseline.cpp - Library baselines timed beside the variants ---------===//

#include "roofline/Runner/Baseline.h"

#include "llvm/Support/FormatVariadic.h"

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

BaselineSource roofline::blasBaseline(const UnitManifest &M) {
  BaselineSource B;
  B.Name = "openblas";
  if (!M.Contraction) {
    B.WhyNot = "not a contraction (gemm, gemv)";
    return B;
  }
  const ManifestContraction &C = *M.Contraction;
  if (C.Batch) {
    B.WhyNot = "batched contraction (no single CBLAS call)";
    return B;
  }
  if (C.Epilogue) {
    B.WhyNot = "has an epilogue CBLAS does not compute";
    return B;
  }
  bool Gemm = C.Kind == "gemm", Gemv = C.Kind == "gemv";
  if (!Gemm && !Gemv) {
    B.WhyNot = "a " + C.Kind + " (only gemm and gemv have a baseline)";
    return B;
  }
  std::string T = C.Elem == "f32" ? "float" : C.Elem == "f64" ? "double" : "";
  if (T.empty()) {
    B.WhyNot = C.Elem + " operands (CBLAS has f32 and f64)";
    return B;
  }
  std::string P = C.Elem == "f32" ? "s" : "d";
  for (const auto &[Role, First] : C.First)
    if (First != "0") {
      B.WhyNot = "loop " + Role + " starts at " + First + ", not 0";
      return B;
    }
  std::vector<std::string> Roles = {"m", "k"};
  if (Gemm)
    Roles.push_back("n");
  for (const std::string &R : Roles)
    if (!C.Extent.count(R) || C.Extent.at(R).empty()) {
      B.WhyNot = "the " + R + " extent is unknown";
      return B;
    }
  // L is the operand indexed by M (the matrix of a gemv).
  ContractionOperand L = C.L, R = C.R;
  auto Has = [](const ContractionOperand &X, const char *Role) {
    auto It = X.Strides.find(Role);
    return It != X.Strides.end() && !It->second.empty() && It->second != "0";
  };
  if (!Has(L, "m") && Has(R, "m"))
    std::swap(L, R);
  int IO = argIndex(M, C.Out.Array), IL = argIndex(M, L.Array),
      IR = argIndex(M, R.Array);
  if (IO < 0 || IL < 0 || IR < 0) {
    B.WhyNot = "an operand is not an argument of the unit";
    return B;
  }
  std::string Beta = C.InitZero ? "0" : "1";
  auto Ptr = [&](int I, bool Const) {
    return "static_cast<" + std::string(Const ? "const " : "") + T +
           " *>(rl_a[" + std::to_string(I) + "])";
  };
  std::string Call;
  if (Gemm) {
    auto S = [&](const ContractionOperand &X, const char *Role) {
      auto It = X.Strides.find(Role);
      return It == X.Strides.end() ? std::string() : It->second;
    };
    bool RowMajor;
    std::string Ldc;
    if (S(C.Out, "n") == "1") {
      RowMajor = true;
      Ldc = S(C.Out, "m");
    } else if (S(C.Out, "m") == "1") {
      RowMajor = false;
      Ldc = S(C.Out, "n");
    } else {
      B.WhyNot = "the output has no unit stride";
      return B;
    }
    MatrixView VL = viewOf(L, "m", "k", RowMajor),
               VR = viewOf(R, "k", "n", RowMajor);
    if (!VL.Ok || !VR.Ok || Ldc.empty()) {
      B.WhyNot = "an operand has no unit stride";
      return B;
    }
    const char *Order = RowMajor ? "CblasRowMajor" : "CblasColMajor";
    Call = llvm::formatv("cblas_{0}gemm({1}, {2}, {3}, ({4}), ({5}), ({6}), 1, "
                         "{7}, ({8}), {9}, ({10}), {11}, {12}, ({13}))",
                         P, Order, VL.Trans ? "CblasTrans" : "CblasNoTrans",
                         VR.Trans ? "CblasTrans" : "CblasNoTrans",
                         C.Extent.at("m"), C.Extent.at("n"), C.Extent.at("k"),
                         Ptr(IL, true), VL.Ld, Ptr(IR, true), VR.Ld, Beta,
                         Ptr(IO, false), Ldc)
               .str();
    B.Call = llvm::formatv("cblas_{0}gemm({1}, {2}, {3})", P,
                           RowMajor ? "RowMajor" : "ColMajor",
                           VL.Trans ? "Trans" : "NoTrans",
                           VR.Trans ? "Trans" : "NoTrans")
                 .str();
  } else {
    MatrixView VL = viewOf(L, "m", "k", true);
    auto S = [&](const ContractionOperand &X, const char *Role) {
      auto It = X.Strides.find(Role);
      return It == X.Strides.end() ? std::string() : It->second;
    };
    std::string IncX = S(R, "k"), IncY = S(C.Out, "m");
    if (!VL.Ok || IncX.empty() || IncY.empty() || IncX == "0" || IncY == "0") {
      B.WhyNot = "an operand has no unit stride";
      return B;
    }
    // Row-major A(m, k) is NoTrans with rows m; stored transposed it is a
    // k x m matrix used transposed.
    std::string Rows = VL.Trans ? C.Extent.at("k") : C.Extent.at("m");
    std::string Cols = VL.Trans ? C.Extent.at("m") : C.Extent.at("k");
    Call = llvm::formatv("cblas_{0}gemv(CblasRowMajor, {1}, ({2}), ({3}), 1, "
                         "{4}, ({5}), {6}, ({7}), {8}, {9}, ({10}))",
                         P, VL.Trans ? "CblasTrans" : "CblasNoTrans", Rows, Cols,
                         Ptr(IL, true), VL.Ld, Ptr(IR, true), IncX, Beta,
                         Ptr(IO, false), IncY)
               .str();
    B.Call = llvm::formatv("cblas_{0}gemv(RowMajor, {1})", P,
                           VL.Trans ? "Trans" : "NoTrans")
                 .str();
  }
  const ManifestVariant *Naive = M.find("naive");
  double RTol = Naive ? Naive->RTol : 0,
         PerTerm = Naive ? Naive->RTolPerTerm : (P == "s" ? 2.4e-7 : 4.5e-16),
         ATol = Naive ? Naive->ATol : 1e-30;
  std::string Code =
      "// " + M.Unit + ": the OpenBLAS baseline (generated by roofline-run; "
      "do not edit).\n#include \"roofline_harness.h\"\n\n#include <cblas.h>\n\n"
      "namespace {\nvoid rl_baseline(void *const *rl_a, const int64_t *rl_s) {\n";
  for (size_t I = 0; I < M.Sizes.size(); ++I)
    Code += "  const int64_t " + M.Sizes[I].Name + " = rl_s[" +
            std::to_string(I) + "];\n  (void)" + M.Sizes[I].Name + ";\n";
  if (M.Sizes.empty())
    Code += "  (void)rl_s;\n";
  Code += "  " + Call + ";\n}\n} // namespace\n\n";
  Code += "extern \"C\" void rl_harness_extra_variants(rl::harness::unit_desc *U) {\n"
          "  rl::harness::variant_desc V;\n  V.name = \"openblas\";\n"
          "  V.fn = rl_baseline;\n  V.prepare = nullptr;\n";
  Code += llvm::formatv("  V.tol = {{{0:e}, {1:e}, {2:e}};\n", RTol, PerTerm, ATol)
              .str();
  Code += "  U->variants.push_back(V);\n}\n";
  B.Code = std::move(Code);
  return B;
}
