// Deliberately allocates: the symbol check must flag this object file (negative control).
#include <cstdlib>

void* flakAllocProbe(std::size_t n) { return std::malloc(n); }
