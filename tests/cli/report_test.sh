#!/usr/bin/env bash
# twinsched report and analyze from the command line, and the stock scenarios' reports as a person sees them: opened
# in headless Chromium from file://, with no console message (the page's CSP turns any load into one), every chart
# drawn, and a screenshot that is not blank. Usage: report_test.sh TWINSCHED [FOLDER to keep the screenshots in]
source "$(dirname "$0")/lib.sh"
set -e
need_bin "${1:-}" "report_test.sh TWINSCHED [FOLDER]"
shots=${2:-}
chromium=$(command -v chromium || command -v chromium-browser || true)
[ -n "$chromium" ] || die "chromium is not installed (scripts/setup.sh --test installs Debian's chromium)"

# browse LOG ARGS...: headless Chromium, its console messages (INFO:CONSOLE lines) and errors into LOG
browse() {
  local log=$1
  shift
  timeout 90 "$chromium" --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir="$tmp/profile" \
    --enable-logging=stderr --v=0 "$@" 2>"$log"
}
# check_page HTML NAME [LEAST_CHARTS] [shot]: loads, draws every chart, logs nothing; with `shot`, a
# screenshot that is not blank too (one page of each kind: a Chromium start is the test's main cost)
check_page() {
  local html=$1 name=$2 least=${3:-5} shot=${4:-shot}
  browse "$tmp/$name.log" --dump-dom "file://$html" >"$tmp/$name.dom" || die "$name: chromium failed"
  if grep -q ':CONSOLE' "$tmp/$name.log"; then grep ':CONSOLE' "$tmp/$name.log" >&2; die "$name: console messages"; fi
  grep -q 'data-ready="yes"' "$tmp/$name.dom" || die "$name: the page's script did not finish"
  grep -q 'data-empty-charts="0"' "$tmp/$name.dom" || die "$name: a chart has nothing drawn"
  local charts
  charts=$(grep -o 'data-charts="[0-9]*"' "$tmp/$name.dom" | tr -dc 0-9)
  [ "${charts:-0}" -ge "$least" ] || die "$name: $charts charts"
  [ "$shot" = shot ] || return 0
  browse "$tmp/$name.shot.log" --screenshot="$tmp/$name.png" --window-size=1200,1800 "file://$html" >/dev/null ||
    die "$name: no screenshot"
  local size
  size=$(stat -c %s "$tmp/$name.png")
  [ "$size" -gt $((blank * 4)) ] || die "$name: the screenshot looks blank ($size bytes; a blank page: $blank)"
  if [ -n "$shots" ]; then mkdir -p "$shots" && cp "$tmp/$name.png" "$html" "$shots/"; fi
}

# The checks can fail: a page that breaks its CSP and throws is caught; a blank page's screenshot is small.
cat >"$tmp/bad.html" <<'HTML'
<!DOCTYPE html><html><head><meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'">
</head><body><img src="http://example.invalid/x.png"><script>undefined_function();</script></body></html>
HTML
browse "$tmp/bad.log" --dump-dom "file://$tmp/bad.html" >/dev/null
[ "$(grep -c ':CONSOLE' "$tmp/bad.log")" -ge 2 ] || die "the console check misses a blocked load and an exception"
echo '<!DOCTYPE html><html><body></body></html>' >"$tmp/blank.html"
browse "$tmp/blank.log" --screenshot="$tmp/blank.png" --window-size=1200,1800 "file://$tmp/blank.html" >/dev/null
blank=$(stat -c %s "$tmp/blank.png")

# Every stock scenario, simulated on 4 cores and traced at the full level (forward and fanout-idle shortened).
for f in "$src"/scenarios/*.toml; do
  name=$(basename "$f" .toml)
  params=()
  case $name in
    forward | sim_shared_vs_stealing) params=(--param hops=300) ;;
  esac
  "$bin" sim "$f" --cores 4 "${params[@]}" --trace "$tmp/$name.tst" >/dev/null || die "$name: sim failed"
  "$bin" report "$tmp/$name.tst" -o "$tmp/$name.html" 2>"$tmp/$name.err" || { cat "$tmp/$name.err" >&2; die "$name: report failed"; }
  grep -q "wrote $tmp/$name.html" "$tmp/$name.err" || die "$name: no 'wrote' line"
  check_page "$tmp/$name.html" "$name" 5 "$([ "$name" = pi ] && echo shot || echo no-shot)"
done

# Two traces compared: sim against real, the diff's table and the verdict in the page.
"$bin" run "$src/scenarios/pi.toml" --param terms=20000 --trace "$tmp/pi.real.tst" >/dev/null
"$bin" report "$tmp/pi.real.tst" "$tmp/pi.tst" -o "$tmp/compare.html" 2>/dev/null
grep -q 'A vs B' "$tmp/compare.html" || die "compare: no comparison section"
grep -q 'class="big"' "$tmp/compare.html" || die "compare: no difference highlighted"
check_page "$tmp/compare.html" compare

# sim --cores LIST --report: the scaling table as a page
"$bin" sim "$src/scenarios/pi.toml" --cores 1,2,4 --param terms=20000 --report "$tmp/scaling.html" >/dev/null
grep -q 'Speed-up over the fewest cores' "$tmp/scaling.html" || die "sim --report: no speed-up chart"
check_page "$tmp/scaling.html" scaling 2

# accuracy --report: the matrix's makespan errors as a page
rc=0
"$bin" accuracy --scenario forward --param hops=200 --policy stealing,sharing --workers 1 --runs 1 --report "$tmp/accuracy.html" \
  >/dev/null 2>&1 || rc=$?
[ "$rc" -le 1 ] || die "accuracy --report exited $rc"  # exit 1 only says the errors are large; the page is what is checked
grep -q 'Makespan error per case' "$tmp/accuracy.html" || die "accuracy --report: no error chart"
check_page "$tmp/accuracy.html" accuracy 1

# analyze: the numbers, JSON and GraphViz
out=$("$bin" analyze "$tmp/pi.tst")
for word in "strongly connected" "parallelism" "span" "bound" "this run"; do
  grep -q "$word" <<<"$out" || die "analyze: no '$word' in: $out"
done
"$bin" analyze "$tmp/pi.tst" --json | grep -q '"parallelism"' || die "analyze --json"
"$bin" analyze "$tmp/forward.tst" --dot "$tmp/g.dot" --dot-edges 7 >/dev/null
grep -q '^digraph' "$tmp/g.dot" || die "--dot: not GraphViz"
[ "$(grep -c -- '->' "$tmp/g.dot")" -eq 7 ] || die "--dot-edges 7: $(grep -c -- '->' "$tmp/g.dot") edges"

# Bad input: one line naming the file or option, exit code 2.
expect_2() {
  local what=$1
  shift
  set +e
  "$bin" "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  set -e
  [ "$rc" -eq 2 ] || die "$what: exit $rc, not 2"
  [ "$(wc -l <"$tmp/err")" -eq 1 ] || { cat "$tmp/err" >&2; die "$what: not one line"; }
  [ -z "${expect_word:-}" ] || grep -q -- "$expect_word" "$tmp/err" || die "$what: no '$expect_word' in $(cat "$tmp/err")"
}
expect_word="$tmp/none.tst" expect_2 "a missing trace" report "$tmp/none.tst" -o "$tmp/x.html"
expect_word="$tmp/none.tst" expect_2 "analyze of a missing trace" analyze "$tmp/none.tst"
head -c 3000 "$tmp/pi.tst" >"$tmp/cut.tst"
expect_word="$tmp/cut.tst" expect_2 "a truncated trace" report "$tmp/cut.tst" -o "$tmp/x.html"
expect_word="$tmp/no/such/dir/r.html" expect_2 "an unwritable output" report "$tmp/pi.tst" -o "$tmp/no/such/dir/r.html"
expect_word="--bins" expect_2 "bins out of range" report "$tmp/pi.tst" -o "$tmp/x.html" --bins 3
expect_word="" expect_2 "three traces" report "$tmp/pi.tst" "$tmp/pi.tst" "$tmp/pi.tst" -o "$tmp/x.html"
expect_word="--output" expect_2 "no output" report "$tmp/pi.tst"
"$bin" report --help | grep -q "critical path" || die "report --help"
echo "report and analyze: OK"
