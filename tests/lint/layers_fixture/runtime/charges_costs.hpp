// A runtime header that reaches into the simulator by a relative path: the layers lint must name this include.
#pragma once
#include "../sim/sim_platform.hpp"
