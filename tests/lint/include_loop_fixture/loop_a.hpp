// Half of a header loop: the include-loop lint must catch it (tests/CMakeLists.txt).
#pragma once
#include "loop_b.hpp"
