#!/usr/bin/env bash
# Fails unless README.md shows examples/countdown.cpp verbatim (the block after its marker line).
set -u
readme=${1:?README.md}; example=${2:?examples/countdown.cpp}
shown=$(awk '/<!-- example: examples\/countdown.cpp -->/{f=1; next} f && /^```cpp/{inb=1; next} inb && /^```/{exit} inb' "$readme")
if [ "$shown" != "$(cat "$example")" ]; then
  echo "README.md's example differs from examples/countdown.cpp:"
  diff <(echo "$shown") "$example" | head -20
  exit 1
fi
echo "README.md shows examples/countdown.cpp verbatim"
