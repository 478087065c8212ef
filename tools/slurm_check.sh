#!/bin/bash
# The Slurm recipe (contrib/slurm) tested for real: starts a private single-node cluster on this machine
# (Debian's slurm-wlm and munge; its own munged, slurmctld and slurmd, on their own ports and files, all
# stopped at the end), submits a small manifest as a job array with its merge job, and checks
#   1. the merged summary equals a local `vqtwin batch` run over the same manifest, byte for byte, and
#      every row's output equals the local one (but for its fps);
#   2. after one array task is killed mid-run (scancel), submitting again scores only the rows not
#      written (the other tasks' and the killed task's finished rows are "done before"), and the merge is
#      again the local summary.
# Needs root (the daemons run jobs as root) and, if missing, installs slurm-wlm and munge (apt-get).
#   tools/slurm_check.sh [VQTWIN]      (default build/tools/vqtwin/vqtwin)
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
vqtwin=$(realpath "${1:-build/tools/vqtwin/vqtwin}")
[ "$(id -u)" = 0 ] || { echo "slurm_check: needs root (slurmd runs the jobs)"; exit 1; }
if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends slurm-wlm munge
fi

W=$(mktemp -d /tmp/vqtwin-slurm.XXXXXX)
chmod 755 "$W"
pids=()
cleanup() {
  local rc=$?
  # Jobs first (their step daemons outlive slurmd otherwise), then the daemons this script started.
  if [ ${#pids[@]} -ge 3 ]; then
    scancel --partition=check 2>/dev/null || true
    for _ in $(seq 100); do [ -z "$(squeue -h 2>/dev/null)" ] && break; sleep 0.1; done
  fi
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
  done
  if [ $rc != 0 ]; then
    echo "slurm_check: FAILED (rc $rc); logs:"
    tail -n 15 "$W"/*.log "$W"/data/*.log 2>/dev/null || true
  fi
  [ -n "${KEEP:-}" ] || rm -rf "$W"
  exit $rc
}
trap cleanup EXIT
say() { echo "slurm_check: $*"; }

# munge: a private daemon, key and socket (run as the munge user, as munged requires).
mkdir -p "$W/munge"
dd if=/dev/urandom of="$W/munge/munge.key" bs=1024 count=1 status=none
chown -R munge:munge "$W/munge"
chmod 700 "$W/munge"
chmod 400 "$W/munge/munge.key"
runuser -u munge -- munged --key-file="$W/munge/munge.key" --socket="$W/munge/munge.socket" \
  --pid-file="$W/munge/munged.pid" --log-file="$W/munge/munged.log" --seed-file="$W/munge/seed" --force
for _ in $(seq 50); do [ -S "$W/munge/munge.socket" ] && break; sleep 0.1; done
pids+=("$(cat "$W/munge/munged.pid")")

host=$(hostname -s)
cpus=$(nproc)
port=$((20000 + RANDOM % 20000))
mkdir -p "$W/state" "$W/spool"
cat > "$W/slurm.conf" <<EOF
ClusterName=vqtwin-check
SlurmctldHost=$host
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$W/munge/munge.socket
StateSaveLocation=$W/state
SlurmdSpoolDir=$W/spool
SlurmctldPidFile=$W/slurmctld.pid
SlurmdPidFile=$W/slurmd.pid
SlurmctldLogFile=$W/slurmctld.log
SlurmdLogFile=$W/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SwitchType=switch/none
MpiDefault=none
ReturnToService=2
SchedulerParameters=sched_interval=1
MinJobAge=600
NodeName=$host CPUs=$cpus RealMemory=1000 State=UNKNOWN
PartitionName=check Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$W/slurm.conf
slurmctld -f "$W/slurm.conf"
for _ in $(seq 100); do [ -s "$W/slurmctld.pid" ] && break; sleep 0.1; done
pids+=("$(cat "$W/slurmctld.pid")")
slurmd -f "$W/slurm.conf"
for _ in $(seq 100); do [ -s "$W/slurmd.pid" ] && break; sleep 0.1; done
pids+=("$(cat "$W/slurmd.pid")")
for _ in $(seq 150); do sinfo -h -o %t 2>/dev/null | grep -Eq '^(idle|mix)' && break; sleep 0.2; done
sinfo -h -o "%P %t %c" | grep -q idle || { say "the node did not come up"; exit 1; }
say "cluster up: $(sinfo -h -o '%P %D node %t, %c CPUs')"

# A small manifest: four references, eight rows (other sizes, options, models). With 3 tasks, the
# shards hold r1 (3 rows), r2 + r4 (3 rows, two passes: the task the kill check stops between them), r3.
D=$W/data; mkdir -p "$D"
ff() { ffmpeg -nostdin -v error -y "$@"; }
ff -f lavfi -i testsrc2=size=320x180:rate=25 -frames:v 30 -pix_fmt yuv420p "$D/r1.y4m"
ff -f lavfi -i mandelbrot=size=320x180:rate=25 -frames:v 30 -pix_fmt yuv420p "$D/r2.y4m"
ff -f lavfi -i testsrc=size=320x180:rate=25 -frames:v 30 -pix_fmt yuv420p "$D/r3.y4m"
ff -f lavfi -i testsrc2=size=640x360:rate=25 -frames:v 90 -pix_fmt yuv420p "$D/r4.y4m"
for r in r1 r2 r3 r4; do
  ff -i "$D/$r.y4m" -c:v libx264 -crf 35 "$D/${r}_crf35.mkv"
  ff -i "$D/$r.y4m" -vf scale=192:108 -c:v libx264 -crf 25 "$D/${r}_108p.mp4"
  ff -i "$D/$r.y4m" -vf noise=alls=12:allf=t -pix_fmt yuv420p "$D/${r}_noise.y4m"
done
cat > "$D/m.csv" <<EOF
reference,distorted,output,model,options
r1.y4m,r1_crf35.mkv,out/r1_crf35.json,,
r1.y4m,r1_108p.mp4,out/r1_108p.json,,--scale auto
r1.y4m,r1_noise.y4m,out/r1_noise.xml,version=vmaf_v0.6.1neg,--feature psnr
r2.y4m,r2_crf35.mkv,out/r2_crf35.json,,--feature float_ssim --subsample 2
r2.y4m,r2_108p.mp4,out/r2_108p.csv,,--scale auto
r3.y4m,r3_noise.y4m,out/r3_noise.json,,-n --feature psnr --feature float_psnr
r3.y4m,r3_crf35.mkv,out/r3_crf35.json,,
r4.y4m,r4_noise.y4m,out/r4_noise.json,,
EOF
mkdir -p "$W/local" "$W/cluster"
cp "$D"/*.y4m "$D"/*.mkv "$D"/*.mp4 "$D/m.csv" "$W/local/"
cp "$D"/*.y4m "$D"/*.mkv "$D"/*.mp4 "$D/m.csv" "$W/cluster/"
"$vqtwin" batch "$W/local/m.csv" -q --precision max
say "local run: $(grep -c '"status": "ok"' "$W/local/m.summary.json") rows scored"

# Waits until none of the given jobs is pending or running.
wait_jobs() {
  for _ in $(seq 1800); do
    [ -z "$(squeue -h -j "$1" -o %i 2>/dev/null)" ] && return 0
    sleep 0.2
  done
  say "jobs $1 did not end"; squeue; return 1
}
compare() {
  cmp "$W/local/m.summary.json" "$W/cluster/m.summary.json" || { say "merged summary differs from the local run"; exit 1; }
  for f in "$W"/local/out/*; do
    case $f in *.row.json) continue;; esac
    diff <(grep -v fps "$f") <(grep -v fps "$W/cluster/out/$(basename "$f")") >/dev/null ||
      { say "$(basename "$f") differs"; exit 1; }
  done
}
submit() {
  VQTWIN="$vqtwin" VQTWIN_ARGS="--precision max" GPUS=0 CPUS=1 VQTWIN_BATCH_ARGS="${1:-}" \
    "$repo/contrib/slurm/submit.sh" "$W/cluster/m.csv" 3
}

# 1. The array and its merge.
read -r _ array _ merge < <(submit)
say "submitted array $array, merge $merge"
wait_jobs "$array,$merge"
compare
say "1. the merged summary of 3 array tasks = the local run, byte for byte; all 8 outputs equal"

# 2. One task killed mid-run, then the array submitted again.
rm -rf "$W/cluster/out" "$W/cluster/m.summary.json" "$W"/cluster/*.shard-*.json
read -r _ array _ merge < <(submit "--jobs 1")
# The task with two passes: cancelled once its first pass is written, before its second ends.
target=""
for k in 0 1 2; do
  if "$vqtwin" batch "$W/cluster/m.csv" --shard "$k/3" --dry-run --precision max | grep -c "^pass 2:" >/dev/null; then
    target=$k
    break
  fi
done
[ -n "$target" ] || { say "no shard has two passes"; exit 1; }
log="$W/cluster/vqtwin-${array}_$target.log"
for _ in $(seq 1200); do [ -f "$log" ] && grep -q "^vqtwin: row .* -> " "$log" && break; sleep 0.05; done
grep -q "^vqtwin: row .* -> " "$log" || { say "task $target wrote no row"; exit 1; }
! grep -q "^vqtwin: batch " "$log" || { say "task $target ended before it could be cancelled"; exit 1; }
scancel "${array}_$target"
wait_jobs "$array,$merge"
done_then=$(ls "$W"/cluster/out/*.row.json 2>/dev/null | wc -l)
say "task $target cancelled mid-run; $done_then of 8 rows were written"
[ "$done_then" -lt 8 ] || { say "the task finished before it was cancelled"; exit 1; }
! cmp -s "$W/local/m.summary.json" "$W/cluster/m.summary.json" || { say "the merge of a cancelled array is complete?"; exit 1; }
read -r _ array _ merge < <(submit)
wait_jobs "$array,$merge"
scored=0 before=0
for log in "$W"/cluster/vqtwin-"$array"_*.log; do
  line=$(grep "^vqtwin: batch " "$log")
  scored=$((scored + $(sed -E 's/.* ([0-9]+) scored.*/\1/' <<<"$line")))
  before=$((before + $(sed -E 's/.* ([0-9]+) done before.*/\1/' <<<"$line")))
done
say "resubmitted: $scored rows scored, $before done before"
[ "$scored" = $((8 - done_then)) ] && [ "$before" = "$done_then" ] || { say "the resubmission did not score exactly the missing rows"; exit 1; }
compare
say "2. after the cancelled task, the resubmitted array scored only the $scored missing rows; merge = local run"
say "passed"
