#!/usr/bin/env bash
# `twinsched sweep --slurm` against a real Slurm: starts munged, slurmctld and slurmd on this machine
# (a generated slurm.conf: one node, ports of its own, everything under a temporary folder), runs a
# small sweep through a job array, checks that the gathered rows equal a local run's (the simulator
# is deterministic, so every column but wall_s must be identical), then stops the daemons.
# Needs Debian's slurm-wlm and munge (scripts/setup.sh --test installs them) and root, or a user munged
# (slurmd runs jobs as their users, so it must run as root: without root the test is skipped, exit 77).
# Usage: tests/slurm/slurm_sweep_test.sh PATH/TO/twinsched [SWEEP.toml]
# With SWEEP.toml, that sweep also runs through the cluster (--tasks 16) and its wall time is printed.
set -uo pipefail
bin=$(realpath "${1:?usage: slurm_sweep_test.sh PATH/TO/twinsched [SWEEP.toml]}")
measure=${2:+$(realpath "$2")}
src=$(cd "$(dirname "$0")/../.." && pwd)
[[ $(id -u) -eq 0 ]] || { echo "slurm_sweep_test: skipped: slurmd must run as root"; exit 77; }
for tool in munged slurmctld slurmd sbatch squeue sinfo; do
  command -v "$tool" >/dev/null || { echo "slurm_sweep_test: $tool not found: run scripts/setup.sh --test"; exit 1; }
done
tmp=$(mktemp -d /tmp/twinsched-slurm.XXXXXX)
chmod 755 "$tmp"
pids=()
stop() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  for p in "${pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$p" 2>/dev/null
  done
  [[ -n ${KEEP:-} ]] || rm -rf "$tmp"
}
trap stop EXIT
die() { echo "FAIL: $*"; for f in "$tmp"/*.log; do echo "--- $f"; tail -20 "$f"; done; exit 1; }
t0=$(date +%s.%N)

# munge, with a key and socket of its own
mkdir -p "$tmp/munge" "$tmp/state" "$tmp/spool"
chmod 711 "$tmp/munge"
dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$tmp/munge/munge.key"
munged --foreground --force --key-file="$tmp/munge/munge.key" --socket="$tmp/munge/munge.sock" \
       --pid-file="$tmp/munge/munged.pid" --seed-file="$tmp/munge/seed" --log-file="$tmp/munged.log" \
       >"$tmp/munged.out.log" 2>&1 &
pids+=($!)
for _ in $(seq 50); do [[ -S $tmp/munge/munge.sock ]] && break; sleep 0.1; done
[[ -S $tmp/munge/munge.sock ]] || die "munged did not start"

node=$(hostname -s)
cpus=$(nproc)
port=$((17000 + RANDOM % 2000))
cat >"$tmp/slurm.conf" <<CONF
ClusterName=twinsched-test
SlurmctldHost=$node
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=$(id -un)
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$tmp/munge/munge.sock
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=30
MinJobAge=5
NodeName=$node CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$tmp/slurm.conf
slurmctld -D -i -f "$SLURM_CONF" >"$tmp/slurmctld.out.log" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" -N "$node" >"$tmp/slurmd.out.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do
  state=$(sinfo -h -o %T 2>/dev/null | head -1)
  [[ $state == idle* ]] && break
  sleep 0.2
done
[[ $state == idle* ]] || die "the node did not become idle (state '${state:-none}')"
t_up=$(date +%s.%N)

# The sweep: 3 policies x 2 core counts x 2 seeds = 12 small simulations, dealt over 4 array tasks.
cat >"$tmp/grid.toml" <<TOML
scenario = "$src/scenarios/forward.toml"
[axes]
policy = ["stealing", "sharing", "shared-queue"]
cores = [1, 2]
seed = [1, 2]
TOML
cd "$tmp" || exit 1
args=(grid.toml --param hops=300 --param tokens=20)
out=$(timeout 300 "$bin" sweep "${args[@]}" --slurm --tasks 4 -o slurm 2>"$tmp/sweep-err.log") ||
  die "sweep --slurm failed: $out $(cat "$tmp/sweep-err.log")"
echo "$out"
[[ $out == *"submitted Slurm job"*"12 OK, 0 FAIL, 0 ERROR"* ]] || die "unexpected summary: $out"
t_slurm=$(date +%s.%N)
timeout 300 "$bin" sweep "${args[@]}" --jobs 2 -o local >/dev/null 2>&1 || die "the local run failed"
strip() { tail -n +2 "$1" | sed 's/,[^,]*$//' | sort -t, -k1,1n; }
[[ $(strip slurm.csv | wc -l) -eq 12 ]] || die "slurm.csv holds $(strip slurm.csv | wc -l) rows, expected 12"
diff <(strip slurm.csv) <(strip local.csv) || die "the Slurm rows differ from the local run's"
[[ $(ls slurm.slurm/task-*.jsonl | wc -l) -eq 4 ]] || die "expected 4 task result files"

# A lost task: remove one task's rows; --slurm --resume re-submits that task alone.
rm slurm.slurm/task-1.*
sed -i '/^{"cell":\(1\|5\|9\),/d' slurm.jsonl
out=$(timeout 300 "$bin" sweep "${args[@]}" --slurm --tasks 4 -o slurm --resume 2>&1) || die "resume failed: $out"
[[ $out == *"1 array task of 4 for 3 cells"*"12 OK"* ]] || die "resume did not re-submit just task 1: $out"
# --no-wait submits and returns; --gather, once the job has left the queue, collects the same rows.
out=$(timeout 60 "$bin" sweep "${args[@]}" --slurm --tasks 3 --no-wait -o later 2>&1) || die "--no-wait failed: $out"
[[ $out == *"submitted Slurm job"*"--slurm --gather"* ]] || die "--no-wait did not say how to gather: $out"
job=$(sed -n 's/.*submitted Slurm job \([0-9]*\).*/\1/p' <<<"$out")
[[ -n $job ]] || die "no job id in: $out"
for _ in $(seq 600); do [[ -z $(squeue -h -j "$job" 2>/dev/null) ]] && break; sleep 0.2; done
out=$(timeout 60 "$bin" sweep "${args[@]}" --slurm --gather -o later 2>&1) || die "--gather failed: $out"
diff <(strip later.csv) <(strip local.csv) || die "the gathered --no-wait rows differ from the local run's"
t_end=$(date +%s.%N)
if [[ -n $measure ]]; then
  t_m=$(date +%s.%N)
  out=$(timeout 900 "$bin" sweep "$measure" --slurm --tasks 16 -o measured 2>&1) || die "the measured sweep failed: $out"
  printf 'slurm_sweep_test: %s through Slurm (16 tasks on %s CPUs): %.1f s wall\n%s\n' "$measure" "$cpus" \
    "$(echo "$(date +%s.%N) - $t_m" | bc)" "$out"
fi
printf 'slurm_sweep_test: OK (daemons up in %.1f s, 12-cell sweep through Slurm %.1f s, whole test %.1f s)\n' \
  "$(echo "$t_up - $t0" | bc)" "$(echo "$t_slurm - $t_up" | bc)" "$(echo "$t_end - $t0" | bc)"
