// A simulator file that reaches into the real backend: the layers lint must name this include.
#include "runtime/run_threads.hpp"
