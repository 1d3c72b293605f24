// The bash completion script's writer: one case arm per command step, option value, option list
// and argument list, quoted for bash; and the script is valid bash.
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "cli/bash_completion.hpp"

TEST_SUITE_BEGIN("unit");  // this file's default label (tests/CMakeLists.txt)

using namespace twinsched::cli;

namespace {

std::string script() {
  completion_command root{"", {"-h", "--help"}, {}, {}, {"sim", "trace"}};
  completion_command sim{"sim", {"--cores", "--machine"}, {}, {}, {}};
  sim.option_values.emplace_back("--machine", completion_values{{"default", "xeon"}, completion_values::toml_file});
  sim.option_values.emplace_back("--cores", completion_values{});
  sim.arguments = {{"forward", "it's"}, completion_values::toml_file};
  completion_command trace{"trace", {}, {}, {{"info"}, completion_values::none}, {"info"}};
  completion_command info{"trace info", {"--json"}, {}, {{}, completion_values::any_file}, {}};
  std::ostringstream out;
  write_bash_completion(out, {root, sim, trace, info});
  return out.str();
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("each command's subcommands, option values, options and arguments become case arms") {
  const std::string s = script();
  CHECK(has(s, "      '|sim') cmd='sim' ;;\n"));
  CHECK(has(s, "      'trace|info') cmd='trace info' ;;\n"));
  CHECK(has(s, "      'sim|--machine') words='default xeon' files=toml ;;\n"));
  CHECK(has(s, "      'sim|--cores') ;;\n"));  // a value, nothing to offer
  CHECK(has(s, "      '') words='-h --help' ;;\n"));
  CHECK(has(s, "      'sim') words='--cores --machine' ;;\n"));
  CHECK(has(s, "      'sim') words='forward it'\\''s' files=toml ;;\n"));  // a quote inside single quotes
  CHECK(has(s, "      'trace info') files=any ;;\n"));
  CHECK(has(s, "complete -o filenames -F _twinsched twinsched\n"));
}

TEST_CASE("the script is valid bash") {
  const std::string path = "bash_completion_test_script.bash";
  std::ofstream(path) << script();
  const int rc = std::system(("bash -n " + path).c_str());
  std::remove(path.c_str());
  CHECK(rc == 0);
}
