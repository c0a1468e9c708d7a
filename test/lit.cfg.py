import os
import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "roofline-lint"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".c", ".cpp", ".cu", ".test", ".yaml"]
config.excludes = ["Inputs", "unit", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.roofline_obj_root, "test")

llvm_config.use_default_substitutions()  # FileCheck, not, count
config.substitutions.append(("%kernels", os.path.join(config.roofline_src_root, "kernels")))
config.substitutions.append(("%python", config.python_executable))
# The directory of the built tools (for tests that put them on PATH).
config.substitutions.append(("%roofline-bin", config.roofline_tools_dir))
config.substitutions.append(("%expect-exit", config.python_executable + " " +
                             os.path.join(config.test_source_root, "Inputs", "expect-exit.py")))
llvm_config.add_tool_substitutions(
    [ToolSubst("roofline-lint", unresolved="fatal"),
     ToolSubst("roofline-probe", unresolved="fatal"),
     ToolSubst("roofline-run", unresolved="fatal")], [config.roofline_tools_dir])

# --diff runs git (test/CI/diff.test).
import shutil
if shutil.which("git"):
    config.available_features.add("git")

# roofline-run builds the CPU variants with the system C++ compiler and
# times OpenBLAS and BLIS beside them: a test that needs one of them says
# REQUIRES: cxx, openblas or blis, and is UNSUPPORTED where it is absent.
def _links(header, lib):
    """Whether c++ compiles and links a program using header and lib."""
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "t.cpp")
        with open(src, "w") as f:
            f.write("#include <%s>\nint main() { return 0; }\n" % header)
        try:
            return subprocess.run(["c++", src, "-o", os.path.join(d, "t"), lib],
                                  capture_output=True, timeout=60).returncode == 0
        except (OSError, subprocess.TimeoutExpired):
            return False
import subprocess
if shutil.which("c++"):
    config.available_features.add("cxx")
    if _links("cblas.h", "-lopenblas"):
        config.available_features.add("openblas")
    if _links("blis.h", "-lblis"):
        config.available_features.add("blis")

# roofline-probe measures a bf16 peak only on CPUs with AVX512_BF16, and
# bf16 and i8 peaks on tiles where the CPU has AMX (Linux names the flags
# only where it can grant the tile state).
try:
    with open("/proc/cpuinfo") as _ci:
        _flags = _ci.read()
    if " avx512_bf16" in _flags:
        config.available_features.add("avx512-bf16")
    if all(" " + f in _flags for f in ("amx_tile", "amx_int8", "amx_bf16")):
        config.available_features.add("amx")
except OSError:
    pass

# roofline-run's CUDA tests: nvcc builds .cu variants; where a device also
# answers, "skipped: no CUDA device" is not the expected outcome.
import shutil
import subprocess
_nvcc = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc"
                                 if os.access("/usr/local/cuda/bin/nvcc", os.X_OK) else None)
if _nvcc:
    config.available_features.add("nvcc")
    config.substitutions.append(("%nvcc", os.path.realpath(_nvcc)))
try:
    if subprocess.run(["nvidia-smi", "-L"], capture_output=True, timeout=20).returncode == 0:
        config.available_features.add("cuda-device")
except (OSError, subprocess.TimeoutExpired):
    pass
