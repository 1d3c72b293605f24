// toml++ as the harnesses compile it (forced in with -include ahead of every source of fuzz_scenario and fuzz_machine).
//
// Header-only, so the parser is instrumented: coverage for libFuzzer, ASan and UBSan checks
// inside it. Its internal debug assertions are compiled out, as in Debian's libtomlplusplus.so
// (built with GCC, where TOML_ASSERT_ASSUME is a no-op under NDEBUG): toml++ 3.3.0 asserts on
// table headers such as "[&" or "[\0" (marzer/tomlplusplus#294, fixed upstream by #301),
// where the shipped library goes on to report a normal parse error, which the harnesses check.
// Not NDEBUG: with clang, NDEBUG would turn the assertion into __builtin_assume, undefined behavior.
#pragma once
#define TOML_HEADER_ONLY 1
#define TOML_EXCEPTIONS 1
#define TOML_ASSERT(expr) static_cast<void>(0)
