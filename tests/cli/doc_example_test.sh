#!/usr/bin/env bash
# Fails unless the document shows the example file verbatim (the block after its marker line
# "<!-- example: PATH -->"): docs/WORKLOADS.md and examples/countdown.cpp.
source "$(dirname "$0")/lib.sh"
doc=${1:?usage: doc_example_test.sh DOC.md EXAMPLE}; example=${2:?usage: doc_example_test.sh DOC.md EXAMPLE}
marker="<!-- example: examples/$(basename "$example") -->"
grep -qF "$marker" "$doc" || die "$doc has no marker line '$marker'"
shown=$(awk -v m="$marker" '$0 == m {f=1; next} f && /^```cpp/{inb=1; next} inb && /^```/{exit} inb' "$doc")
[ "$shown" == "$(cat "$example")" ] || die "$doc's example differs from $example:"$'\n'"$(diff <(echo "$shown") "$example" | head -20)"
echo "$doc shows $example verbatim"
