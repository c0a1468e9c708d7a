"""Breaks an emitted int8 batched gemm (bgemm) kernel the way a real bug
would, for int8-bound.test.

perturb-int8.py FILE MODE
  scale  the output scaled by 1.05 (a 5% wrong scale)
  row    every row dequantized with its batch's first row's scale
  drop   the reduction's last term dropped
"""
import sys

path, mode = sys.argv[1:3]
src = open(path).read()
store = "(static_cast<float>(acc) * A_scale[b * M + i]) * B_scale[0];"
assert src.count(store) == 1, "store not found once"
if mode == "scale":
    src = src.replace(store, store[:-1] + " * 1.05f;")
elif mode == "row":
    src = src.replace(store, store.replace("A_scale[b * M + i]", "A_scale[b * M]"))
elif mode == "drop":
    loop = "for (int64_t k = 0; k <= K - 1; ++k) {\n          acc +="
    assert src.count(loop) == 1, "reduction loop not found once"
    src = src.replace(loop, loop.replace("k <= K - 1", "k < K - 1"))
else:
    sys.exit("unknown mode " + mode)
open(path, "w").write(src)
