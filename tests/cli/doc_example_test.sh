#!/usr/bin/env bash
# Fails unless the document shows the example file verbatim (the block after its marker line
# "<!-- example: PATH -->"): docs/WORKLOADS.md and examples/countdown.cpp.
set -u
doc=${1:?usage: doc_example_test.sh DOC.md EXAMPLE}; example=${2:?usage: doc_example_test.sh DOC.md EXAMPLE}
marker="<!-- example: examples/$(basename "$example") -->"
grep -qF "$marker" "$doc" || { echo "$doc has no marker line '$marker'"; exit 1; }
shown=$(awk -v m="$marker" '$0 == m {f=1; next} f && /^```cpp/{inb=1; next} inb && /^```/{exit} inb' "$doc")
if [ "$shown" != "$(cat "$example")" ]; then
  echo "$doc's example differs from $example:"
  diff <(echo "$shown") "$example" | head -20
  exit 1
fi
echo "$doc shows $example verbatim"
