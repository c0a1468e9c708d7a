// The file the tool runs on for the cranium-function corpus: 100/Cranium is
// header-only (run.py passes --header-filter=function\.h$). Our code.
#include "function.h"
