// The other half of the loop loop_a.hpp starts.
#pragma once
#include "loop_a.hpp"
