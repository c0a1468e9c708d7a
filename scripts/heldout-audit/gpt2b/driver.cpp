// Held-out audit driver for karpathy/llm.c train_gpt2.c at other sizes than
// gpt2/driver.cpp (the same calls): B=3 T=5 C=12 NH=3 V=37 Vp=40. B*T = 15 is
// no multiple of 8, so matmul_forward falls back to matmul_forward_naive.
#define GPT2_B 3
#define GPT2_T 5
#define GPT2_C 12
#define GPT2_NH 3
#define GPT2_V 37
#define GPT2_VP 40
#include "../gpt2/driver.cpp"
