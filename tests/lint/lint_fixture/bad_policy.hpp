// A policy that breaks the one rule on purpose: tests/lint/lint_models.sh must reject this folder.
#pragma once
#include <atomic>
struct bad_policy {
  std::atomic<int> direct{0};
};
