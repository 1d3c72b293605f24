// `twinsched accuracy --help`'s footer: how the matrix runs, what the host check does, the defaults, examples.
#pragma once

namespace twinsched::cli {

inline constexpr const char* accuracy_footer =
    R"(Each case is one scenario with one policy and one worker count. The real side runs it on
this machine's threads: --warmup runs first (discarded: the burn loop's calibration, page
faults, a cold allocator and caches land there), then --runs measured runs, one at a time in
this process, untraced, nothing else of twinsched running; the real makespan is their median
and its counters are those of the median run (for an even --runs, the faster middle one).
By default the runs go in rounds (--order rounds): the warm-up round runs every case once,
then each measured round does, so one case's runs lie minutes apart and a slow spell of a
shared host costs one run of many cases instead of every run of one (on the development VM
the same pingpong case took 210-242 ms in six runs in a row and 980 ms in three in a row 15
minutes later). --order cases runs each case's warm-ups and runs one after another.
Every simulation runs after the last real run.
The host check: before the first real run and after each, a line transfer between CPU 0
and another core is probed as calibrate measures it (a few ms) and set beside the model's. Over 2x
apart, the machine is not the one the model describes (the development VM's host moves its
two CPUs apart now and then: 9-12 ns one hour, 73 the next, sometimes within a matrix). A
measured run counts only if the probes on both sides of it match: the real figure is the
median of those; after the rounds, up to --reruns more rounds re-run each case short of
--runs such runs, until none is short or a round gains nothing. A case with no run in the
model's state is shown with * and left out of the summary. When no run of the matrix found
the host in the model's state (the model is of another machine, or of this one in another
state), every run counts and nothing is re-run. Either way: HOST CHECK FAILED under the
table, "matches": false in the JSON; a warning on stderr when the first probe disagrees.
Calibrate again then.
Workers are threads, not pinned. The simulated side runs the same scenario once (it is
deterministic) in a child process on --machine with one modeled core per worker (adaptive:
per thread it may start, up to this machine's cores, as the real run could use them).
Error = (sim - real) / real, signed: negative means the simulator predicts too short a run.
Busy share is compared in percentage points; a counter that is 0 on real cores and not in
simulation has no relative error (n/a). A case whose run fails its verdict is FAIL and
left out of the statistics.
The defaults: every stock scenario (scenarios/*.toml except the sim_* finding scenarios;
`twinsched list scenarios`) x every policy the scenario can use (donation needs a group of
equal actors; adaptive a worker count within its min/max) x 1 and 2 workers (at most this
machine's cores; a larger --workers is refused). Progress goes to stderr, by step (each real
run, each simulation): on a terminal a line with the step's case, its phase and how far it
has got (messages of a real run, simulated time and messages of the simulation); elsewhere
a line per step.
--tolerance compares the median over the compared cases of |makespan error| (the "median"
of the summary line); --worst-tolerance the largest |makespan error|. The counters never
decide the exit code.
Examples:
  twinsched accuracy                                        the full default matrix
  twinsched accuracy --scenario pi --scenario skewed --policy stealing,sharing --workers 2
  twinsched accuracy --scenario forward --param hops=2000 --runs 5 --markdown > table.md
  twinsched accuracy --machine my-machine.toml --tolerance 10% --worst-tolerance 25%
Exit codes: 0 every case ran and the tolerances (if given) hold; 1 a tolerance is exceeded
or a run failed its verdict; 2 a bad flag, scenario or machine.)";

}  // namespace twinsched::cli
