#!/bin/bash
# Submits a manifest to Slurm: an array of TASKS tasks (vqtwin-array.sbatch), then the merge job
# (vqtwin-merge.sbatch) once every task has ended. Prints the two job ids.
#   contrib/slurm/submit.sh MANIFEST TASKS [sbatch options...]
# Environment: VQTWIN, VQTWIN_ARGS, VQTWIN_BATCH_ARGS (see vqtwin-array.sbatch); CPUS per task (default 8);
# GPUS per task (default: 1 when this vqtwin has CUDA twins, else 0; each task then runs with
# --backend cuda --gpu all, and asks --gres=gpu:GPUS). Resubmitting after a failure scores only the
# rows not yet written.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
manifest=$(realpath "${1:?usage: submit.sh MANIFEST TASKS [sbatch options]}")
tasks=${2:?usage: submit.sh MANIFEST TASKS [sbatch options]}
shift 2
vqtwin=${VQTWIN:-$(command -v vqtwin || true)}
[ -x "$vqtwin" ] || { echo "submit.sh: set VQTWIN to the vqtwin executable (on the shared filesystem)" >&2; exit 2; }
vqtwin=$(realpath "$vqtwin")
if [ -z "${GPUS:-}" ]; then "$vqtwin" --list | grep -q '_cuda' && GPUS=1 || GPUS=0; fi
args=${VQTWIN_ARGS:-}
gres=()
if [ "$GPUS" -gt 0 ]; then
  gres=(--gres="gpu:$GPUS")
  args="--backend cuda --gpu all $args"
fi
export MANIFEST="$manifest" VQTWIN="$vqtwin" VQTWIN_ARGS="$args" VQTWIN_BATCH_ARGS="${VQTWIN_BATCH_ARGS:-}" SHARDS="$tasks"
logs=$(dirname "$manifest")
array=$(sbatch --parsable --array="0-$((tasks - 1))" --cpus-per-task="${CPUS:-8}" "${gres[@]}" \
  --output="$logs/vqtwin-%A_%a.log" --export=ALL "$@" "$here/vqtwin-array.sbatch")
array=${array%%;*}
merge=$(sbatch --parsable --dependency="afterany:$array" --output="$logs/vqtwin-merge-%j.log" --export=ALL "$@" \
  "$here/vqtwin-merge.sbatch")
echo "array $array merge ${merge%%;*}"
