// Accessors of classes (issue 18; LowerAccessors.cpp): a method, operator
// or function of one `return e;` returning an element or a pointer is e at
// the call's arguments, the object's fields named through the caller's
// object. Refused with the reason: an accessor that changes its object, an
// element picked by a loaded index, an object of an array of objects, an
// accessor with more than locals and assertions on indices before its
// return. std::unique_ptr<T[]> and std::shared_ptr<T[]> are arrays.
// RUN: roofline-lint --verbosity=normal --no-source --param n=16 %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: roofline-lint --format=json --param n=16 %s -- -std=c++17 | FileCheck %s --check-prefix=JSON

#include <cassert>
#include <memory>

template <class T> struct Mat {
  int n;
  T *data;
  T &operator()(int r, int c) { return data[r * n + c]; }
  const T *row(int r) const { return data + r * n; }
  T *operator[](int r) { return &data[r * n]; }
};

// 16^3 MACs; A, B and C of 256 floats each, named A.data, B.data, C.data,
// their size A.n and so on (--param n only sizes the loops).
// CHECK: accessors.cpp:[[@LINE+3]]:3: note: 4,096 MACs, 8,192 FLOPs (f32: 8,192); 3,072 bytes compulsory
// JSON: "name": "C.data"
void gemm_call(Mat<float> &C, const Mat<float> &A, Mat<float> &B, int n) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      const float *a = A.row(i);
      float s = 0.0f;
      for (int k = 0; k < n; k++)
        s += a[k] * B[k][j];
      C(i, j) = s;
    }
}

// Through a pointer to the object: x->data, 16 rows of x->n.
// CHECK: accessors.cpp:[[@LINE+2]]:3: note: 0 MACs, 256 FLOPs (f32: 256); 2,048 bytes compulsory
void scale(Mat<float> *x, int n) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      (*x)(i, j) *= 2.0f;
}

// An int8 matrix: i8 elements, 1 byte each, read once; each added as a
// float (256 adds) and 16 scalings.
// CHECK: accessors.cpp:[[@LINE+2]]:3: note: 0 MACs, 272 FLOPs (f32: 272); 320 bytes compulsory
void dequant_rowsum(float *out, Mat<signed char> &q, float s, int n) {
  for (int i = 0; i < n; i++) {
    float acc = 0.0f;
    for (int j = 0; j < n; j++)
      acc += q(i, j);
    out[i] = acc * s;
  }
}

struct Cursor {
  int pos;
  float *data;
  float &next() { return data[pos++]; }
};
// CHECK: accessors.cpp:[[@LINE+2]]:3: note: loop nest not analyzed: access 'c.next()': call to 'c.next', no accessor: it changes the field 'pos'
void drain(float *out, Cursor &c, int n) {
  for (int i = 0; i < n; i++)
    out[i] = c.next();
}

struct Table {
  int dim;
  float *w;
  const int *ids;
  float &tok(int t, int c) { return w[ids[t] * dim + c]; }
};
// CHECK: accessors.cpp:[[@LINE+2]]:3: note: loop nest not analyzed: access 't.tok(i, j)': in 't.tok', what it returns: gather: the index 'ids[t] * dim + c' of 't.w' is loaded from memory
void gather_rows(float *out, Table &t, int n) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      out[i * n + j] = t.tok(i, j);
}

// CHECK: accessors.cpp:[[@LINE+2]]:3: note: loop nest not analyzed: access 'layers[l](0, j)': the object of 'layers[l](0, j)': one object of the array 'layers' (a value per object)
void first_rows(float *out, Mat<float> *layers, int n) {
  for (int l = 0; l < n; l++)
    for (int j = 0; j < n; j++)
      out[l * n + j] = layers[l](0, j);
}

// Owned by smart pointers; a row accessor asserting its argument first.
struct Owned {
  int n;
  std::unique_ptr<float[]> w;
  std::shared_ptr<float[]> b;
  const float *row(int r) const {
    assert(r < n);
    const float *p = w.get() + r * n;
    return p;
  }
};
// 256 floats of w read, 16 of b, 16 of x, 16 of y written: 1,216 bytes.
// CHECK: accessors.cpp:[[@LINE+2]]:3: note: 256 MACs, 512 FLOPs (f32: 512); 1,216 bytes compulsory
void gemv_owned(float *y, const Owned &o, const float *x, int n) {
  for (int i = 0; i < n; i++) {
    const float *wi = o.row(i);
    float s = o.b[i];
    for (int j = 0; j < n; j++)
      s += wi[j] * x[j];
    y[i] = s;
  }
}

// An assertion that reads the array is work the tool does not take from a
// helper: no accessor.
struct Checked {
  int n;
  float *d;
  float &at(int i) {
    assert(d[i] == d[i]);
    return d[i];
  }
};
// CHECK: accessors.cpp:[[@LINE+2]]:3: note: loop nest not analyzed: access 'c.at(i)': call to 'c.at', no accessor: 'assert(d[i] == d[i])' before its return (only integer locals, row pointers, and assertions that read nothing)
void zero(Checked &c, int n) {
  for (int i = 0; i < n; i++)
    c.at(i) = 0.0f;
}
