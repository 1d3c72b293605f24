// twinsched-full: the whole command line with the stock workloads and policies. `twinsched`
// (cli/main.cpp) serves `run` itself and execs this for every other command.
#include "cli/cli_main.hpp"

int main(int argc, char** argv) { return twinsched::cli_main(argc, argv); }
