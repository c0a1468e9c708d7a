// Held-out audit driver for 100/Cranium src/matrix.h (scripts/heldout-audit).
// Our code: it #includes the published header unchanged and calls its matrix
// kernels: transposeInto, addTo, scalarMultiply, multiplyInto (3x4 times 4x5)
// and hadamardInto into matrices the driver owns, and transpose, add,
// addToEachRow, multiply and hadamard, which malloc their result's data first:
// that allocation is registered with the oracle under the name the driver
// sets just before the call (the Matrix struct createMatrix allocates next is
// not). Every element is read and written through Cranium's getMatrix and
// setMatrix helpers (`mat->data[row * mat->cols + col]`). add is called on
// square matrices: it allocates A->rows * B->rows elements for A->rows *
// A->cols. transpose writes its result with setMatrix(transpose, i, j, ...)
// into a matrix of orig->rows columns: at 3x4 its rows overlap, which the
// tool is told (transpose->cols) and must not count as distinct rows.
#include "../shims.h"

namespace {
const char *NextAllocation = nullptr;
/// The data array a kernel mallocs, registered under the name the driver
/// gave for this call; every other allocation is left alone.
heldout::AnyPointer registeringMalloc(size_t Bytes) {
  void *P = (::malloc)(Bytes); // the function, not shims.h's macro
  if (NextAllocation)
    oracle_register(NextAllocation, P, Bytes / sizeof(float), sizeof(float), 0);
  NextAllocation = nullptr;
  return heldout::AnyPointer{P};
}
} // namespace
#undef malloc
#define malloc(N) registeringMalloc(N)
#include "matrix.h"
#undef malloc

namespace {
Matrix matrixOver(oracle::Array<float> &A, size_t Rows, size_t Cols) {
  Matrix M;
  M.rows = Rows;
  M.cols = Cols;
  M.data = A;
  return M;
}
} // namespace

int main() {
  const int R = 3, C = 4, N = 5;
  ORACLE_PARAM("orig->rows", R);
  ORACLE_PARAM("orig->cols", C);
  ORACLE_PARAM("origT->cols", R);
  ORACLE_PARAM("from->rows", R);
  ORACLE_PARAM("from->cols", C);
  ORACLE_PARAM("to->cols", C);
  ORACLE_PARAM("multiplyInto:A->rows", R);
  ORACLE_PARAM("multiplyInto:A->cols", C);
  ORACLE_PARAM("multiplyInto:B->rows", C);
  ORACLE_PARAM("multiplyInto:B->cols", N);
  ORACLE_PARAM("multiplyInto:into->cols", N);
  ORACLE_PARAM("hadamardInto:A->rows", R);
  ORACLE_PARAM("hadamardInto:A->cols", C);
  ORACLE_PARAM("hadamardInto:B->cols", C);
  ORACLE_PARAM("hadamardInto:into->cols", C);
  ORACLE_PARAM("transpose->cols", R);
  ORACLE_PARAM("add:A->rows", R);
  ORACLE_PARAM("add:A->cols", R);
  ORACLE_PARAM("add:result->cols", R);
  ORACLE_PARAM("addToEachRow:A->rows", R);
  ORACLE_PARAM("addToEachRow:A->cols", C);
  ORACLE_PARAM("addToEachRow:B->cols", C);
  ORACLE_PARAM("addToEachRow:result->cols", C);
  ORACLE_PARAM("multiply:A->rows", R);
  ORACLE_PARAM("multiply:A->cols", C);
  ORACLE_PARAM("multiply:B->rows", C);
  ORACLE_PARAM("multiply:B->cols", N);
  ORACLE_PARAM("multiply:result->cols", N);
  ORACLE_PARAM("hadamard:A->rows", R);
  ORACLE_PARAM("hadamard:A->cols", C);
  ORACLE_PARAM("hadamard:B->cols", C);
  ORACLE_PARAM("hadamard:result->cols", C);
  {
    oracle::Array<float> a("orig->data", R * C), t("origT->data", C * R);
    Matrix Orig = matrixOver(a, R, C), OrigT = matrixOver(t, C, R);
    ORACLE_CALL(transposeInto(&Orig, &OrigT));
    ORACLE_CALL(scalarMultiply(&Orig, 0.5f));
    NextAllocation = "transpose->data";
    ORACLE_CALL(transpose(&Orig));
  }
  {
    oracle::Array<float> f("from->data", R * C), t("to->data", R * C);
    Matrix From = matrixOver(f, R, C), To = matrixOver(t, R, C);
    ORACLE_CALL(addTo(&From, &To));
  }
  {
    oracle::Array<float> a("A->data", R * C), b("B->data", C * N), o("into->data", R * N);
    Matrix A = matrixOver(a, R, C), B = matrixOver(b, C, N), Into = matrixOver(o, R, N);
    ORACLE_CALL(multiplyInto(&A, &B, &Into));
  }
  {
    oracle::Array<float> a("A->data", R * C), b("B->data", R * C), o("into->data", R * C);
    Matrix A = matrixOver(a, R, C), B = matrixOver(b, R, C), Into = matrixOver(o, R, C);
    ORACLE_CALL(hadamardInto(&A, &B, &Into));
    NextAllocation = "result->data";
    ORACLE_CALL(hadamard(&A, &B));
  }
  {
    oracle::Array<float> a("A->data", R * C), b("B->data", C * N);
    Matrix A = matrixOver(a, R, C), B = matrixOver(b, C, N);
    NextAllocation = "result->data";
    ORACLE_CALL(multiply(&A, &B));
    oracle::Array<float> row("B->data", C);
    Matrix Row = matrixOver(row, 1, C);
    NextAllocation = "result->data";
    ORACLE_CALL(addToEachRow(&A, &Row));
  }
  {
    oracle::Array<float> a("A->data", R * R), b("B->data", R * R);
    Matrix A = matrixOver(a, R, R), B = matrixOver(b, R, R);
    NextAllocation = "result->data";
    ORACLE_CALL(add(&A, &B));
  }
}
