// The check every loader's error tests share: a bad file fails in one line, at its position, saying what is wrong.
#pragma once
#include <doctest/doctest.h>

#include <string>

namespace twinsched::testing {

/// `e` (an error's text) is one line, starts with "bad.toml:WHERE: " and contains `phrase`.
inline void check_one_line_error(const std::string& e, const std::string& where, const std::string& phrase) {
  CAPTURE(e);
  CHECK(e.rfind("bad.toml:" + where + ": ", 0) == 0);
  CHECK(e.find(phrase) != std::string::npos);
  CHECK(e.find('\n') == std::string::npos);
}

}  // namespace twinsched::testing
