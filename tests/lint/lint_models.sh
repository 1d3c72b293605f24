#!/usr/bin/env bash
# Fails if code under models/ names threads, mutexes, condition variables, std::atomic, thread_local, clocks or sleeps (docs/ARCHITECTURE.md: the one rule).
set -u
dir=${1:?usage: lint_models.sh MODELS_DIR}
hits=$(grep -rnE 'std::(thread|mutex|condition_variable|atomic|jthread|this_thread)|thread_local|steady_clock|system_clock|high_resolution_clock|sleep_for|sleep_until|usleep|nanosleep|simgrid|#include <(thread|mutex|condition_variable|chrono)>' \
       "$dir" --include='*.hpp' --include='*.cpp' --include='*.h' | grep -vE '^[^:]+:[0-9]+:\s*//')
if [ -n "$hits" ]; then
  echo "models/ must reach the machine only through the platform (docs/ARCHITECTURE.md):"
  echo "$hits"
  exit 1
fi
echo "models/ is clean: no direct threads, locks, atomics, clocks or sleeps"
