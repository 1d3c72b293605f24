// The twinsched command line as a function: a user's own executable gets every subcommand for its workloads.
#pragma once

namespace twinsched {

/// Runs the twinsched command line (`run`, `sim`, `diff`, `replay`, `explore`, `sweep`, `report`,
/// ...) and returns its exit code: 0 OK, 1 a run's verdict failed, 2 an invalid scenario or
/// command line. A program that calls `register_workload` first and then this from its main()
/// gets the whole tool for its own workloads, which its scenario files name by `kind`
/// (examples/own_command.cpp). Stock names (`run forward`, `--machine xeon-2s-32c`) are looked up
/// in `<folder of the executable>/../share/twinsched`, as for the installed `twinsched`; scenario
/// and machine files given by path work from anywhere.
int cli_main(int argc, char** argv);

}  // namespace twinsched
