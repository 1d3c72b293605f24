// The one error a trace reader throws: what was wrong, at which byte of which file.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>

namespace twinsched::traces {

/// A trace that cannot be read: what() is "FILE: byte N: what was expected / found".
class trace_error : public std::runtime_error {
 public:
  trace_error(const std::string& file, std::uint64_t offset, const std::string& message)
      : std::runtime_error(file + ": byte " + std::to_string(offset) + ": " + message),
        file_(file),
        offset_(offset),
        message_(message) {}
  const std::string& file() const { return file_; }
  std::uint64_t offset() const { return offset_; }
  const std::string& message() const { return message_; }

 private:
  std::string file_;
  std::uint64_t offset_;
  std::string message_;
};

}  // namespace twinsched::traces
