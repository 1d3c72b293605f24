// libFuzzer harness: scenario TOML text -> load_scenario_text (toml++ parsing, key checks, validate()).
//
// A rejected input is a scenario_error (file:line:col) or a config_error; anything else that
// escapes, and every crash, leak, hang or sanitizer report, is a bug. An accepted scenario
// must also survive the round trip a trace depends on: its canonical text (what a trace
// header stores and `twinsched replay` loads) loads again, to the same canonical text.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_common.hpp"
#include "scenarios/scenario_loader.hpp"
#include "traces/scenario_text.hpp"

using namespace twinsched;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (fuzz::hits_toml_unicode_bug(text)) return 0;  // a known toml++ 3.3.0 bug (fuzz_common.hpp)
  scenario s;
  try {
    s = load_scenario_text(text, "fuzz.toml");
  } catch (const scenario_error&) {
    return 0;
  } catch (const config_error&) {
    return 0;
  } catch (const std::exception& e) {
    fuzz::other_exception(e);
    return 0;
  }
  const std::string canonical = traces::canonical_scenario_text(s);
  if (fuzz::hits_toml_unicode_bug(canonical)) return 0;  // an escape in the input wrote one
  try {
    const scenario again = load_scenario_text(canonical, "canonical.toml");
    if (traces::canonical_scenario_text(again) != canonical)
      fuzz::broken("canonical text does not reproduce itself:", canonical.c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "canonical text:\n%s\n", canonical.c_str());
    fuzz::broken("an accepted scenario's canonical text does not load:", e.what());
  }
  return 0;
}
