#!/usr/bin/env bash
# The tool's own outputs: no command overwrites one of its inputs (same path, ./path, a hard or symbolic
# link), a bad output path or folder is exit 2 before any work, a damaged trace is exit 2 before replay
# simulates (whichever lane is damaged), and a command killed at any moment leaves the file it was
# replacing whole: the old one or the complete new one.
source "$(dirname "$0")/lib.sh"
need_bin "${1:-}" "outputs_test.sh PATH/TO/twinsched"
cd "$tmp" || exit 1
# every command below that runs workers is bounded; the kill test's commands are killed
limit=(timeout 120)

small=(--param actors=64 --param tokens=16 --param hops=300)
"${limit[@]}" "$bin" run "${small[@]}" --trace x.tst >/dev/null 2>&1 || fail "run --trace x.tst exited $?"
"${limit[@]}" "$bin" run "${small[@]}" --policy shared-queue --trace y.tst >/dev/null 2>&1 || fail "run --trace y.tst exited $?"
cp x.tst x.orig
ln -s x.tst soft.tst
ln x.tst hard.tst
printf 'name = "keyed"\n[workload]\nkind = "forward"\nactors = 8\ntokens = 2\nhops = 50\n' >keyed.toml
cp keyed.toml keyed.orig

# refused CODE WHAT ARGS...: twinsched ARGS exits CODE with one "twinsched: ..." line on stderr
# mentioning WHAT, prints nothing on stdout, and x.tst and keyed.toml are byte for byte as before.
refused() {
  local code=$1 what=$2
  shift 2
  local out err rc
  out=$("${limit[@]}" "$bin" "$@" 2>err.txt); rc=$?
  err=$(cat err.txt)
  if [[ $rc -ne $code ]]; then
    fail "twinsched $* exited $rc, expected $code; stderr: $err"
  elif [[ -n $out || $(wc -l <err.txt) -ne 1 || $err != "twinsched: "*"$what"* ]]; then
    fail "twinsched $*: expected one line with '$what', got stdout '$out' stderr '$err'"
  elif ! cmp -s x.tst x.orig || ! cmp -s keyed.toml keyed.orig; then
    fail "twinsched $* changed an input"
  else
    ok "twinsched $*: exit $code, $err"
  fi
  cp x.orig x.tst; cp keyed.orig keyed.toml  # for the next check, if this one failed
}

# 1. an output naming an input: exit 2 and the input untouched, however the output names it
same="is the same file as the input"
for out in x.tst ./x.tst "$tmp/x.tst" soft.tst hard.tst; do
  refused 2 "$same" replay x.tst -o "$out"
  refused 2 "$same" export perfetto x.tst -o "$out"
  refused 2 "$same" report x.tst -o "$out"
  refused 2 "$same" analyze x.tst --dot "$out"
done
refused 2 "$same" report y.tst x.tst -o x.tst
refused 2 "$same" run keyed.toml --trace keyed.toml
refused 2 "$same" run keyed.toml --trace ./keyed.toml --trace-level decisions
refused 2 "$same" sim keyed.toml --trace keyed.toml
refused 2 "$same" sim keyed.toml --report keyed.toml
refused 2 "$same" sim --machine keyed.toml --trace keyed.toml
refused 2 "name the same file" sim keyed.toml --trace z.tst --report ./z.tst
mkdir v && ln -s ../keyed.toml v/keyed.real.tst
refused 2 "$same" validate keyed.toml --workers 1 --out v
mkdir e && ln -s ../keyed.toml e/scenario.toml  # explore writes the scenario it ran there
refused 2 "$same" explore keyed.toml --runs 1 --out e
[[ ! -e z.tst ]] && ok "nothing was written for the refused sim" || fail "a refused sim wrote z.tst"

# 7. bad output paths: exit 2 before any work (no run line, no measuring, no trace)
missing="$tmp/no-such-folder/x"  # never at /: the old tool, run as root, made folders there
refused 2 "does not exist" run "${small[@]}" --trace $missing.tst
refused 2 "does not exist" sim "${small[@]}" --cores 2 --trace $missing.tst
refused 2 "does not exist" sim "${small[@]}" --cores 2 --report $missing.html
refused 2 "no such folder" validate "${small[@]}" --workers 1 --out $missing
refused 2 "is not a folder" validate "${small[@]}" --workers 1 --out x.tst
refused 2 "does not exist" replay x.tst -o $missing.tst
refused 2 "does not exist" report x.tst -o $missing.html
refused 2 "does not exist" analyze x.tst --dot $missing.dot
refused 2 "does not exist" export perfetto x.tst -o $missing.json
refused 2 "is a folder" export perfetto x.tst -o "$tmp"
refused 2 "is a folder" report x.tst -o "$tmp"
refused 2 "is a folder" run "${small[@]}" --trace "$tmp"
refused 2 "does not exist" explore "${small[@]}" --runs 1 --out $missing/deeper
# calibrate measures for seconds: a bad -o is found before the first measurement (its
# progress goes to stderr, so one line there means nothing was measured)
refused 2 "-o $missing.toml: folder" calibrate --quick -o $missing.toml
# a read-only file is one its owner protected: refused, not renamed over
if [[ $(id -u) -ne 0 ]]; then
  cp x.tst ro.html && chmod a-w ro.html
  refused 2 "not writable" report x.tst -o ro.html
  cmp -s ro.html x.tst && ok "the read-only file is as it was" || fail "the read-only file changed"
fi
# conflicting options: asked to trace at level off
refused 2 "--trace-level off would record nothing" run "${small[@]}" --trace off.tst --trace-level off
[[ ! -e off.tst ]] && ok "--trace-level off wrote no off.tst" || fail "--trace-level off wrote off.tst"

# what is refused above works with a fresh name, and replaces an older file whole
for k in 1 2; do
  echo old >out.json
  "${limit[@]}" "$bin" export perfetto x.tst -o out.json 2>/dev/null || fail "export perfetto -o out.json exited $?"
done
[[ $(head -c 15 out.json) == '{"traceEvents":' ]] && ok "export perfetto replaced out.json" || fail "out.json: $(head -c 40 out.json)"
ln -s out.json link.json
"${limit[@]}" "$bin" report x.tst -o link.json 2>/dev/null || fail "report -o link.json exited $?"
[[ -L link.json && $(head -c 15 out.json) == '<!DOCTYPE html>' ]] && ok "an output through a symbolic link replaces its target" ||
  fail "report through link.json: link kept? $([[ -L link.json ]] && echo yes); out.json: $(head -c 20 out.json)"
if "${limit[@]}" "$bin" report x.tst -o /dev/null 2>/dev/null && [[ -c /dev/null ]]; then
  ok "report -o /dev/null writes into the device, never over it"
else
  fail "report -o /dev/null"
fi
leftovers=$(find . -name '.*.tmp' | wc -l)
[[ $leftovers -eq 0 ]] && ok "no temporary file left behind" || fail "temporary files left: $(find . -name '.*.tmp')"

# 8. a damaged trace: replay is exit 2 before simulating, whichever lane holds the damage.
# flip FILE LANE: flips one payload byte of the first block of LANE (65535: the outside lane).
flip() {
  python3 - "$1" "$2" <<'EOF'
import struct, sys
path, lane = sys.argv[1], int(sys.argv[2])
b = bytearray(open(path, 'rb').read())
at = 16 + struct.unpack_from('<I', b, 12)[0] + 4  # header prefix, header, its CRC
while b[at:at + 4] == b'TBLK' and b[at + 4] == 1:
    blane, count, length = struct.unpack_from('<HII', b, at + 6)
    if blane == lane:
        b[at + 40 + length // 2] ^= 0x5a
        open(path, 'wb').write(b)
        sys.exit(0)
    at += 40 + length
sys.exit('no block of lane %d' % lane)
EOF
}
for lane in 0 1 65535; do
  cp x.orig d$lane.tst
  if ! flip d$lane.tst $lane; then
    fail "could not damage lane $lane"
    continue
  fi
  "$bin" trace info d$lane.tst >/dev/null 2>&1 && fail "trace info accepts the damage in lane $lane"
  out=$("${limit[@]}" "$bin" replay d$lane.tst -o r$lane.tst 2>err.txt); rc=$?
  err=$(cat err.txt)
  if [[ $rc -eq 2 && -z $out && $err == *"d$lane.tst: byte "*"checksum mismatch (lane $lane,"* && $err != *replaying* &&
        ! -e r$lane.tst ]]; then
    ok "replay of a trace damaged in lane $lane: exit 2 before simulating: $err"
  else
    fail "replay d$lane.tst ($rc): stdout '$out' stderr '$err'"
  fi
done

# No command killed at any moment leaves a file it replaces partly written. kill -9 lands at
# seeded pseudo-random moments from the start to past the end; whatever it hits, the file
# must be the old one byte for byte or a complete new one. (Timing only changes where the
# kills land, never what must hold.)
RANDOM=39
big=(--param actors=256 --param tokens=64 --param hops=2000 --workers 2)
"${limit[@]}" "$bin" run "${big[@]}" --trace big.tst >/dev/null 2>&1 || fail "run of the big scenario exited $?"
"${limit[@]}" "$bin" report big.tst -o whole.html 2>/dev/null || fail "report big.tst exited $?"  # the same page each time
complete_trace() { "$bin" trace info "$1" >/dev/null 2>&1; }
seconds() { printf '%d.%03d' $(($1 / 1000)) $(($1 % 1000)); }
# ended STATUS WHAT: the command either finished (0) or was killed (137); anything else means
# it never ran as asked, and the checks after it would prove nothing
ended() { [[ $1 -eq 0 || $1 -eq 137 ]] || fail "$2 ended with status $1, neither finished nor killed"; }
kills=0
for i in $(seq 1 12); do
  ms=$((RANDOM % 400))
  cp big.tst existing.tst
  "$bin" run "${big[@]}" --trace existing.tst >/dev/null 2>&1 &
  pid=$!
  sleep "$(seconds "$ms")"
  kill -9 $pid 2>/dev/null && kills=$((kills + 1))
  wait $pid 2>/dev/null
  ended $? "run --trace"
  if cmp -s existing.tst big.tst; then
    ok "run --trace killed after ${ms} ms: the old trace, byte for byte"
  elif complete_trace existing.tst; then
    ok "run --trace killed after ${ms} ms: the complete new trace"
  else
    fail "run --trace killed after ${ms} ms left a partial existing.tst ($(stat -c %s existing.tst) bytes)"
  fi

  ms=$((RANDOM % 1500))
  echo "<html>the old page</html>" >existing.html
  cp existing.html before.html
  "$bin" report big.tst -o existing.html >/dev/null 2>&1 &
  pid=$!
  sleep "$(seconds "$ms")"
  kill -9 $pid 2>/dev/null && kills=$((kills + 1))
  wait $pid 2>/dev/null
  ended $? report
  if cmp -s existing.html before.html; then
    ok "report killed after ${ms} ms: the old page, byte for byte"
  elif cmp -s existing.html whole.html; then
    ok "report killed after ${ms} ms: the complete new page"
  else
    fail "report killed after ${ms} ms left a partial existing.html ($(wc -c <existing.html) bytes)"
  fi
done
echo "($kills of 24 kills landed on a running command)"

finish "outputs"
