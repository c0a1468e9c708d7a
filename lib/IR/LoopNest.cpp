//===- LoopNest.cpp - LoopNest IR helpers ----------------------------------===//

#include "roofline/IR/LoopNest.h"

using namespace roofline;

const char *roofline::precisionName(Precision P) {
  switch (P) {
  case Precision::F64: return "f64";
  case Precision::F32: return "f32";
  case Precision::F16: return "f16";
  case Precision::BF16: return "bf16";
  case Precision::I8: return "i8";
  case Precision::I32: return "i32";
  case Precision::I64: return "i64";
  case Precision::Unknown: return "unknown";
  }
  return "unknown";
}

std::optional<Precision> roofline::parsePrecision(const std::string &Name) {
  for (Precision P : {Precision::F64, Precision::F32, Precision::F16,
                      Precision::BF16, Precision::I8, Precision::I32,
                      Precision::I64})
    if (Name == precisionName(P))
      return P;
  return std::nullopt;
}

unsigned roofline::precisionBytes(Precision P) {
  switch (P) {
  case Precision::F64: case Precision::I64: return 8;
  case Precision::F32: case Precision::I32: return 4;
  case Precision::F16: case Precision::BF16: return 2;
  case Precision::I8: return 1;
  case Precision::Unknown: return 0;
  }
  return 0;
}

bool roofline::isFloating(Precision P) {
  return P == Precision::F64 || P == Precision::F32 || P == Precision::F16 ||
         P == Precision::BF16;
}

const Array *LoopNest::findArray(const std::string &Name) const {
  for (const Array &A : Arrays)
    if (A.Name == Name)
      return &A;
  return nullptr;
}

const Param *LoopNest::findParam(const std::string &Name) const {
  for (const Param &P : Params)
    if (P.Name == Name)
      return &P;
  return nullptr;
}
