// The `twinsched` command: the stock workloads and policies, and the whole command line over them.
#include "cli/cli_main.hpp"

int main(int argc, char** argv) { return twinsched::cli_main(argc, argv); }
