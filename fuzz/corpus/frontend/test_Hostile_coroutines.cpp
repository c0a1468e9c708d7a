// A coroutine may be suspended at co_await/co_yield and never resumed: a nest
// that suspends is refused; one that only runs before co_return is counted.
// RUN: %expect-exit 0 roofline-lint --no-source %s -- -std=c++20 2>&1 | FileCheck %s
#include <coroutine>

struct Gen {
  struct promise_type {
    Gen get_return_object() { return {}; }
    std::suspend_never initial_suspend() { return {}; }
    std::suspend_never final_suspend() noexcept { return {}; }
    void return_void() {}
    void unhandled_exception() {}
    std::suspend_always yield_value(float) { return {}; }
  };
};

// CHECK: coroutines.cpp:[[@LINE+2]]:3: note: loop nest not analyzed: coroutine suspension ('co_yield') inside the nest: it may never be resumed [roofline-unanalyzable]
Gen yields(float *A) {
  for (int i = 0; i < 100; ++i)
    co_yield A[i];
}

// CHECK: coroutines.cpp:[[@LINE+2]]:3: remark: runs_then_returns: {{.*}}[roofline-verdict]
Gen runs_then_returns(float *A) {
  for (int i = 0; i < 100; ++i)
    A[i] += 1;
  co_return;
}

// CHECK: coroutines.cpp:[[@LINE+2]]:3: note: loop nest not analyzed: early exit ('co_return') out of the loop [roofline-unanalyzable]
Gen returns_early(float *A) {
  for (int i = 0; i < 100; ++i)
    if (A[i] < 0) co_return;
}
