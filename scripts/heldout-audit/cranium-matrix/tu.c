// The file the tool runs on for the cranium corpus: 100/Cranium is header-only,
// and roofline-lint reports a header's nests through a file that includes it
// (run.py passes --header-filter=matrix\.h$). Our code.
#include "matrix.h"
