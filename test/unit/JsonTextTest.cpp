//===- JsonTextTest.cpp - jsonText is formatv("{0:2}") --------------------===//

#include "roofline/Support/JsonText.h"

#include "llvm/Support/FormatVariadic.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <random>

using namespace roofline;
using namespace llvm;

namespace {

std::string viaOStream(const json::Value &V, unsigned Indent) {
  return formatv(("{0:" + std::to_string(Indent) + "}").c_str(), V).str();
}

void expectSame(const json::Value &V) {
  for (unsigned Indent : {0u, 2u, 4u})
    EXPECT_EQ(jsonText(V, Indent), viaOStream(V, Indent)) << viaOStream(V, 2);
}

TEST(JsonTextTest, Scalars) {
  for (json::Value V :
       {json::Value(nullptr), json::Value(true), json::Value(false),
        json::Value(0), json::Value(-1), json::Value(int64_t(1) << 62),
        json::Value(-(int64_t(1) << 52)),
        json::Value(std::numeric_limits<uint64_t>::max()), json::Value(0.0),
        json::Value(-0.0), json::Value(2.0), json::Value(0.1),
        json::Value(1e300), json::Value(-1e-300), json::Value(1e20),
        json::Value(1.0 / 3), json::Value(std::nan("")),
        json::Value(std::numeric_limits<double>::infinity()),
        json::Value(""), json::Value("plain"),
        json::Value("quote \" backslash \\ tab \t nl \n cr \r"),
        json::Value(std::string("ctl \x01\x1f end")), json::Value("\xc3\xa9 utf8"),
        json::Value("bad \xff utf8")})
    expectSame(V);
}

/// Integral doubles below 1e17 are printed as integers (a fast path of
/// the writer's): the edges of that range, -0.0, and random ones.
TEST(JsonTextTest, IntegralDoubles) {
  std::vector<double> Vs = {1e17, -1e17, 99999999999999984.0,
                            -99999999999999984.0, 1.5e17, 1e16 + 2,
                            9007199254740993.0, -9007199254740992.0,
                            -0.0, 0.0, -1.0, 4096.0, 1e15, 123456789.0,
                            0.5, -2.5, 1e17 + 16};
  std::mt19937 R(17);
  for (int I = 0; I < 3000; ++I) {
    double D = std::trunc(std::ldexp(static_cast<double>(R()),
                                     static_cast<int>(R() % 70) - 10));
    Vs.push_back(R() % 2 ? D : -D);
  }
  for (double D : Vs) {
    expectSame(json::Value(D));
    std::string Out;
    {
      JsonWriter W(Out);
      W.number(D);
    }
    EXPECT_EQ(Out, viaOStream(json::Value(D), 2)) << D;
  }
}

/// Escapes at the start, the end and next to each other (the writer copies
/// the runs between them).
TEST(JsonTextTest, EscapeRuns) {
  for (const char *S : {"\"", "\"\"", "a\\", "\\a", "\n\n", "x\x01y\x1f",
                        "\t", "ab\"cd\"", "\x7f\x80"})
    expectSame(json::Value(S));
}

TEST(JsonTextTest, Nested) {
  json::Object O{{"b", 1},
                 {"a", json::Array{}},
                 {"c", json::Object{}},
                 {"B", json::Array{1, "x", json::Object{{"z", 1}, {"y", 2}}}},
                 {"nested", json::Array{json::Array{json::Array{}}, nullptr}}};
  expectSame(json::Value(std::move(O)));
  expectSame(json::Array{});
  expectSame(json::Object{});
}

/// Random documents: every kind at every depth.
json::Value randomValue(std::mt19937 &R, int Depth) {
  std::uniform_int_distribution<int> Kind(0, Depth > 3 ? 4 : 7);
  switch (Kind(R)) {
  case 0:
    return nullptr;
  case 1:
    return R() % 2 == 0;
  case 2:
    return static_cast<int64_t>(R()) - (1ll << 31);
  case 3:
    return std::ldexp(static_cast<double>(R()), static_cast<int>(R() % 80) - 60);
  case 4: {
    std::string S;
    for (unsigned I = R() % 6; I; --I)
      S += static_cast<char>(R() % 128);
    return S;
  }
  case 5:
  case 6: {
    json::Array A;
    for (unsigned I = R() % 4; I; --I)
      A.push_back(randomValue(R, Depth + 1));
    return A;
  }
  default: {
    json::Object O;
    for (unsigned I = R() % 4; I; --I)
      O[std::string(1, 'a' + R() % 26) + std::to_string(R() % 3)] =
          randomValue(R, Depth + 1);
    return O;
  }
  }
}

TEST(JsonTextTest, RandomDocuments) {
  std::mt19937 R(23);
  for (int I = 0; I < 2000; ++I)
    expectSame(randomValue(R, 0));
}

/// Keys that share prefixes and differ in length or in bytes above 0x7f
/// (the writer's own key order), and strings long enough to grow the text
/// several times in one value.
TEST(JsonTextTest, KeyOrderAndLongStrings) {
  std::mt19937 R(7);
  const char *Pieces[] = {"a", "ab", "b", "\xc3\xa9", "_", "A", "\t", "\"", "0"};
  for (int I = 0; I < 500; ++I) {
    json::Object O;
    for (unsigned K = R() % 12; K; --K) {
      std::string Key;
      for (unsigned P = R() % 4; P; --P)
        Key += Pieces[R() % 9];
      std::string Long(R() % 700, 'x');
      for (char &C : Long)
        C = R() % 9 == 0 ? "\\\"\n\x01"[R() % 4] : C;
      O[Key] = std::move(Long);
    }
    expectSame(json::Value(std::move(O)));
  }
}

TEST(JsonTextTest, AppendsAfterText) {
  std::mt19937 R(11);
  for (int I = 0; I < 200; ++I) {
    json::Value V = randomValue(R, 0);
    std::string Out(R() % 300, 'p');
    std::string Before = Out;
    appendJson(Out, V);
    EXPECT_EQ(Out, Before + jsonText(V));
  }
}

/// \p V written value by value through JsonWriter's primitives, each
/// object's keys in sorted order.
void stream(JsonWriter &W, const json::Value &V) {
  switch (V.kind()) {
  case json::Value::Null:
    return W.null();
  case json::Value::Boolean:
    return W.boolean(*V.getAsBoolean());
  case json::Value::Number:
    if (std::optional<int64_t> I = V.getAsInteger())
      return W.integer(*I);
    return W.number(*V.getAsNumber());
  case json::Value::String:
    return W.string(*V.getAsString());
  case json::Value::Array:
    W.arrayBegin();
    for (const json::Value &E : *V.getAsArray())
      stream(W, E);
    return W.arrayEnd();
  case json::Value::Object: {
    std::vector<const json::Object::value_type *> Members;
    for (const auto &E : *V.getAsObject())
      Members.push_back(&E);
    llvm::sort(Members, [](const auto *L, const auto *R) {
      return L->first < R->first;
    });
    W.objectBegin();
    for (const auto *E : Members) {
      W.key(E->first);
      stream(W, E->second);
    }
    return W.objectEnd();
  }
  }
}

TEST(JsonTextTest, WriterPrimitivesMatchTheTree) {
  std::mt19937 R(29);
  for (int I = 0; I < 2000; ++I) {
    json::Value V = randomValue(R, 0);
    for (unsigned Indent : {0u, 2u}) {
      std::string Out;
      {
        JsonWriter W(Out, Indent, 4);
        stream(W, V);
      }
      std::string Want;
      appendJson(Want, V, Indent, 4);
      EXPECT_EQ(Out, Want);
    }
  }
  // Invalid UTF-8 is fixed as json::Value(std::string) fixes it.
  std::string Out;
  {
    JsonWriter W(Out);
    W.string("bad \xff utf8");
  }
  EXPECT_EQ(Out, jsonText(json::Value(std::string("bad \xff utf8"))));
}

// JsonWriter::string checks UTF-8 at a string's first byte above ASCII,
// in its quoting scan: random byte strings (ASCII, escapes, valid and
// broken multi-byte sequences, anywhere) against json::Value's fixing.
TEST(JsonTextTest, StringsCheckedForUTF8) {
  const std::vector<std::string> Pieces = {
      "a",    "xyz",  "\"",       "\\",           "\n",
      "\x01", "\x7f", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80",
      "\xff", "\xc3", "\x80",     "\xe2\x82"};
  std::mt19937 R(31);
  for (int I = 0; I < 3000; ++I) {
    std::string S;
    for (int K = std::uniform_int_distribution<int>(0, 8)(R); K > 0; --K)
      S += Pieces[std::uniform_int_distribution<size_t>(0,
                                                        Pieces.size() - 1)(R)];
    std::string Out;
    {
      JsonWriter W(Out);
      W.string(S);
    }
    EXPECT_EQ(Out, jsonText(json::Value(S))) << S;
  }
}

/// An object part json::Object, part members written by callbacks (in the
/// middle of the key order, first, last, nested): the text of the whole.
TEST(JsonTextTest, ObjectWithWrittenMembers) {
  std::mt19937 R(31);
  for (int I = 0; I < 2000; ++I) {
    json::Value V = randomValue(R, 0);
    json::Object *Whole = V.getAsObject();
    if (!Whole)
      continue;
    json::Object Tree;
    std::vector<std::pair<std::string, json::Value>> Written;
    for (const auto &E : *Whole) {
      if (R() % 2)
        Tree[E.first] = E.second;
      else
        Written.push_back({E.first.str(), E.second});
    }
    // Member holds a function_ref: the callbacks live in Fns.
    std::vector<std::function<void(JsonWriter &)>> Fns;
    Fns.reserve(Written.size());
    std::vector<JsonWriter::Member> Extra;
    for (const auto &[K, X] : Written) {
      const json::Value *P = &X;
      Fns.push_back([P](JsonWriter &W) { stream(W, *P); });
      Extra.push_back({K, Fns.back()});
    }
    std::string Out;
    {
      JsonWriter W(Out, 2, 4);
      W.object(Tree, Extra);
    }
    std::string Want;
    appendJson(Want, V, 2, 4);
    EXPECT_EQ(Out, Want);
  }
}

// key("literal") skips the quoting scan and writes the separator, indent,
// quotes and ": " itself: the same text as key(StringRef), first member or
// later, nested or not, with and without indentation.
TEST(JsonTextTest, LiteralKeysMatchQuotedKeys) {
  auto Write = [](std::string &Out, unsigned IndentSize, bool Literal) {
    JsonWriter W(Out, IndentSize, 4);
    auto Key = [&](llvm::StringRef K) { W.key(K); };
    W.objectBegin();
    Literal ? W.key("a") : Key("a");
    W.integer(1);
    Literal ? W.key("bytes_used_per_line") : Key("bytes_used_per_line");
    W.objectBegin();
    Literal ? W.key("x") : Key("x");
    W.arrayBegin();
    W.objectBegin();
    Literal ? W.key("") : Key("");
    W.null();
    Literal ? W.key("y") : Key("y");
    W.string("v");
    W.objectEnd();
    W.arrayEnd();
    Literal ? W.key("z_last") : Key("z_last");
    W.objectBegin();
    W.objectEnd();
    W.objectEnd();
    W.objectEnd();
  };
  for (unsigned IndentSize : {0u, 2u, 3u}) {
    std::string Quoted, Literal;
    Write(Quoted, IndentSize, false);
    Write(Literal, IndentSize, true);
    EXPECT_EQ(Literal, Quoted) << IndentSize;
  }
  std::string Out;
  Write(Out, 2, true);
  EXPECT_EQ(Out, "{\n      \"a\": 1,\n      \"bytes_used_per_line\": {\n"
                 "        \"x\": [\n          {\n            \"\": null,\n"
                 "            \"y\": \"v\"\n          }\n        ],\n"
                 "        \"z_last\": {}\n      }\n    }");
}

TEST(JsonTextTest, IndentedElement) {
  // A value two levels deep: later lines carry four more columns.
  json::Value V = json::Object{{"a", json::Array{1, 2}}, {"b", "x"}};
  std::string Out;
  appendJson(Out, V, 2, 4);
  EXPECT_EQ(Out, "{\n      \"a\": [\n        1,\n        2\n      ],\n"
                 "      \"b\": \"x\"\n    }");
}

} // namespace
