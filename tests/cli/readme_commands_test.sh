#!/usr/bin/env bash
# Keeps README.md's commands runnable. The block after the marker "<!-- commands: run in this
# order ... -->" runs line by line, in order, in a scratch folder (each line must exit 0; the
# four flows' examples live there). Every other `twinsched ...` line or inline span must name a
# subcommand whose --help lists each --flag it uses, and every bench/ or scripts/ path must exist.
source "$(dirname "$0")/lib.sh"
need_bin "${1:-}" "readme_commands_test.sh PATH/TO/twinsched SOURCE_DIR"
src=$(cd "${2:?usage: readme_commands_test.sh PATH/TO/twinsched SOURCE_DIR}" && pwd)
readme=$src/README.md

# the command `twinsched` on PATH is the binary under test
mkdir -p "$tmp/bin" "$tmp/work"
ln -s "$bin" "$tmp/bin/twinsched"
export PATH="$tmp/bin:$PATH"

# 1. The marked block, in order, from a folder that sees the tree's scenarios/.
mapfile -t runs < <(awk '/^<!-- commands: run in this order/{f=1; next} f && /^```/{if (inb) exit; inb=1; next} inb' "$readme")
[ "${#runs[@]}" -ge 4 ] || fail "README.md has no block of commands after '<!-- commands: run in this order ... -->'"
ln -s "$src/scenarios" "$tmp/work/scenarios"
for line in "${runs[@]}"; do
  cmd=${line%%#*}
  cmd=${cmd%"${cmd##*[![:space:]]}"}
  [ -n "$cmd" ] || continue
  case $cmd in twinsched\ *) ;; *) fail "not a twinsched command in the run block: $cmd"; continue ;; esac
  (cd "$tmp/work" && timeout 300 bash -c "$cmd" </dev/null >out.txt 2>&1)
  rc=$?
  if [ "$rc" -eq 0 ]; then ok "$cmd"; else fail "'$cmd' exited $rc: $(tail -5 "$tmp/work/out.txt")"; fi
done

# 2. Every other command the README shows: its subcommand exists and knows its flags.
fenced=$(awk '/^```/{inb = !inb; next} inb' "$readme")
inline=$(grep -o '`[^`]*`' "$readme" | tr -d '`')
mapfile -t shown < <(printf '%s\n%s\n' "$fenced" "$inline" | sed 's/[[:space:]]*#.*//; s/[[:space:]]*$//' |
  grep -E '^(twinsched |bench/[^ /]|scripts/[^ /]|python3 bench/|build/bench/)' | sort -u)
[ "${#shown[@]}" -ge 5 ] || fail "found only ${#shown[@]} commands in README.md"
for cmd in "${shown[@]}"; do
  read -r -a w <<< "$cmd"
  case ${w[0]} in
    twinsched)
      sub=()  # the subcommand, and its own subcommand where it has them (trace step)
      [[ ${w[1]:-} =~ ^[a-z]+$ ]] && sub=("${w[1]}")
      help=$("$bin" "${sub[@]}" --help 2>&1) || { fail "'twinsched ${sub[*]} --help' fails: $cmd"; continue; }
      if [[ ${w[2]:-} =~ ^[a-z]+$ ]] && grep -q '^Subcommands:' <<< "$help"; then
        sub+=("${w[2]}")
        help=$("$bin" "${sub[@]}" --help 2>&1) || { fail "'twinsched ${sub[*]} --help' fails: $cmd"; continue; }
      fi
      bad=""
      for x in "${w[@]}"; do
        [[ $x == --* ]] || continue
        flag=${x%%=*}
        grep -q -- "$flag\b" <<< "$help" || bad+=" $flag"
      done
      if [ -z "$bad" ]; then ok "$cmd"; else fail "'$cmd': twinsched ${sub[*]} has no$bad"; fi ;;
    python3) [ -f "$src/${w[1]}" ] && ok "$cmd" || fail "'$cmd': no ${w[1]}" ;;
    build/bench/*) grep -q "add_executable(${w[0]##*/} " "$src/bench/CMakeLists.txt" && ok "$cmd" ||
                     fail "'$cmd': bench/CMakeLists.txt builds no ${w[0]##*/}" ;;
    *) [ -x "$src/${w[0]}" ] && ok "$cmd" || fail "'$cmd': no executable ${w[0]}" ;;
  esac
done

finish "readme_commands"
