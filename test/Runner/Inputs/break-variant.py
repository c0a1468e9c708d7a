"""Breaks one emitted variant on purpose, for roofline-run's failure tests.

break-variant.py DIR VARIANT MODE   (DIR: a unit, or an --emit directory
                                   whose first unit is meant)
  wrong    the variant's output gets +1 in its first element
  crash    the variant writes through a null pointer (SIGSEGV)
  hang     the variant never returns
  nobuild  the variant's file does not compile
The original definition is renamed and a wrapper with the variant's symbol
is appended, so the rest of the file is what the emitter wrote.
"""
import json
import os
import sys

unit_dir, variant, mode = sys.argv[1:4]
index = os.path.join(unit_dir, "units.json")
if os.path.exists(index):
    unit_dir = os.path.join(unit_dir, json.load(open(index))["units"][0])
manifest = json.load(open(os.path.join(unit_dir, "manifest.json")))
v = next(x for x in manifest["variants"] if x["name"] == variant)
path = os.path.join(unit_dir, v["file"])
sym = v["symbol"]
src = open(path).read()
if mode == "nobuild":
    src += "\n#error deliberately broken by break-variant.py\n"
else:
    assert src.count("void " + sym + "(") == 1, "symbol not found once"
    src = src.replace("void " + sym + "(", "void " + sym + "_orig(")
    out = next(i for i, a in enumerate(manifest["args"])
               if a["intent"] in ("out", "inout") and not a.get("scalar"))
    ctype = manifest["args"][out]["type"]
    body = {
        "wrong": "  %s_orig(a, s);\n  static_cast<%s *>(a[%d])[0] += 1;\n" % (sym, ctype, out),
        "crash": "  (void)a; (void)s;\n  volatile int *P = nullptr;\n  *P = 1;\n",
        "hang": "  (void)a; (void)s;\n  for (;;)\n    asm volatile(\"\");\n",
    }[mode]
    src += "\nRL_EXPORT void %s(void *const *a, const int64_t *s) {\n%s}\n" % (sym, body)
open(path, "w").write(src)
