// Output files: an output naming an input is found (same path, ./path, hard link, symbolic link), bad
// folders are refused, and a file is replaced whole on commit or not at all.
#include <doctest/doctest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

#include "traces/output_file.hpp"

TEST_SUITE_BEGIN("unit");

using namespace twinsched::files;
namespace fs = std::filesystem;

namespace {

/// A fresh folder under the temporary directory, removed with everything in it.
class temp_dir {
 public:
  temp_dir() {
    static std::atomic<int> n{0};
    path_ = fs::temp_directory_path() / ("twinsched-output-" + std::to_string(::getpid()) + "-" + std::to_string(n++));
    fs::create_directories(path_);
  }
  ~temp_dir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  std::string at(const std::string& name) const { return (path_ / name).string(); }
  const fs::path& path() const { return path_; }
  /// Every file in the folder, names only.
  std::vector<std::string> names() const {
    std::vector<std::string> v;
    for (const auto& e : fs::directory_iterator(path_)) v.push_back(e.path().filename().string());
    return v;
  }

 private:
  fs::path path_;
};

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void write(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

/// The message of the path_error `f` throws; fails the test if it throws none.
template <class F>
std::string refusal(F&& f) {
  try {
    f();
  } catch (const path_error& e) {
    return e.what();
  }
  FAIL("no path_error");
  return {};
}

}  // namespace

TEST_CASE("same_file: the same path, ./path, a hard link and a symbolic link all name the input") {
  temp_dir d;
  const std::string in = d.at("in.tst");
  write(in, "recorded");
  CHECK(same_file(in, in));
  CHECK(same_file(in, (d.path() / "." / "in.tst").string()));
  fs::create_directory(d.path() / "sub");
  CHECK(same_file(in, (d.path() / "sub" / ".." / "in.tst").string()));
  fs::create_hard_link(in, d.at("hard.tst"));
  CHECK(same_file(in, d.at("hard.tst")));
  fs::create_symlink(in, d.at("soft.tst"));
  CHECK(same_file(d.at("soft.tst"), in));
  write(d.at("other.tst"), "recorded");  // equal contents, another file
  CHECK_FALSE(same_file(in, d.at("other.tst")));
  CHECK_FALSE(same_file(in, d.at("missing.tst")));
  CHECK_FALSE(same_file(in, ""));
  // relative to the working directory
  const fs::path was = fs::current_path();
  fs::current_path(d.path());
  CHECK(same_file("in.tst", "./in.tst"));
  CHECK(same_file("in.tst", in));
  CHECK(same_file("new.tst", "./new.tst"));  // neither exists yet: the same path
  fs::current_path(was);
}

TEST_CASE("check_output refuses an input, a folder, a missing or non-folder parent, a read-only file") {
  temp_dir d;
  const std::string in = d.at("in.tst");
  write(in, "recorded");
  fs::create_symlink(in, d.at("link.tst"));
  CHECK(refusal([&] { check_output(in, "-o", {"scenario.toml", in}); }).find("is the same file as the input") !=
        std::string::npos);
  CHECK(refusal([&] { check_output(d.at("link.tst"), "-o", {in}); }).find("-o " + d.at("link.tst")) == 0);
  CHECK(refusal([&] { check_output(d.path().string(), "--trace", {}); }).find("is a folder") != std::string::npos);
  CHECK(refusal([&] { check_output(d.at("no/such/x.tst"), "--trace", {}); }).find("does not exist") != std::string::npos);
  CHECK(refusal([&] { check_output(d.at("in.tst/x.tst"), "--trace", {}); }).find("is not a folder") != std::string::npos);
  CHECK(refusal([&] { check_output("", "--dot", {}); }).find("empty") != std::string::npos);
  CHECK_NOTHROW(check_output(d.at("new.html"), "-o", {in}));
  CHECK_NOTHROW(check_output(d.at("other.tst"), "-o", {in, ""}));
  CHECK_NOTHROW(check_output("/dev/null", "-o", {in}));  // written in place, never renamed over
  if (::geteuid() != 0) {  // root may write anything: no refusal to see
    write(d.at("kept.html"), "protected");
    fs::permissions(d.at("kept.html"), fs::perms::owner_read);
    CHECK(refusal([&] { check_output(d.at("kept.html"), "-o", {}); }).find("not writable") != std::string::npos);
  }
}

TEST_CASE("check_output_folder: an existing folder, or one folder to create in an existing one") {
  temp_dir d;
  write(d.at("file"), "x");
  CHECK_NOTHROW(check_output_folder(d.path().string(), "--out", false));
  CHECK_NOTHROW(check_output_folder(d.path().string() + "/", "--out", false));
  CHECK(refusal([&] { check_output_folder(d.at("new"), "--out", false); }).find("no such folder") != std::string::npos);
  CHECK_NOTHROW(check_output_folder(d.at("new"), "--out", true));
  CHECK_NOTHROW(check_output_folder(d.at("new/"), "--out", true));
  CHECK(refusal([&] { check_output_folder(d.at("a/b"), "--out", true); }).find("does not exist") != std::string::npos);
  CHECK(refusal([&] { check_output_folder(d.at("file"), "--out", true); }).find("is not a folder") != std::string::npos);
  CHECK(refusal([&] { check_output_folder(d.at("file/x"), "--out", true); }).find("is not a folder") != std::string::npos);
}

TEST_CASE("check_input refuses a missing file and a folder") {
  temp_dir d;
  CHECK(refusal([&] { check_input(d.at("missing.tst"), "trace"); }).find("cannot open") != std::string::npos);
  CHECK(refusal([&] { check_input(d.path().string(), "trace"); }).find("is a folder") != std::string::npos);
  write(d.at("x.tst"), "x");
  CHECK_NOTHROW(check_input(d.at("x.tst"), "trace"));
}

TEST_CASE("output_file: without commit the destination is untouched and no temporary file stays") {
  temp_dir d;
  const std::string out = d.at("out.html");
  write(out, "the old page");
  {
    output_file f(out);
    f.stream() << "half of a new pa";
    CHECK(fs::exists(f.temporary_path()));
    CHECK(f.temporary_path() != out);
    CHECK(fs::path(f.temporary_path()).parent_path() == d.path());
    CHECK(read(out) == "the old page");
  }
  CHECK(read(out) == "the old page");
  CHECK(d.names() == std::vector<std::string>{"out.html"});
  {
    output_file f(d.at("new.html"));  // a file that did not exist stays absent
    std::fputs("partial", f.c_file());
  }
  CHECK(d.names() == std::vector<std::string>{"out.html"});
  CHECK_THROWS_AS(output_file(d.at("no/such/x.html")), path_error);
}

TEST_CASE("output_file: commit replaces the file whole, with the mode a plain create gives") {
  temp_dir d;
  const std::string out = d.at("out.tst");
  write(out, std::string(10000, 'o'));
  ::chmod(out.c_str(), 0600);
  const mode_t mask = ::umask(0);
  ::umask(mask);
  {
    output_file f(out);
    std::fputs("new", f.c_file());
    f.commit();
  }
  CHECK(read(out) == "new");
  struct stat st{};
  REQUIRE(::stat(out.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == (0666 & ~mask));
  CHECK(d.names() == std::vector<std::string>{"out.tst"});

  write_whole(d.at("page.html"), "<html>");
  CHECK(read(d.at("page.html")) == "<html>");

  // through a symbolic link: the target gets the new contents, the link stays a link
  fs::create_symlink(out, d.at("latest.tst"));
  write_whole(d.at("latest.tst"), "newer");
  CHECK(fs::is_symlink(d.at("latest.tst")));
  CHECK(read(out) == "newer");

  // a device is written in place
  output_file null("/dev/null");
  null.stream() << "gone";
  CHECK_NOTHROW(null.commit());
  CHECK(fs::is_character_file("/dev/null"));
}

TEST_SUITE_END();
