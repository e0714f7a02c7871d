# Sourced by the run scripts of lab/long-runs/: the checkout's root as the working folder, one thread per process, the
# xinxin driver (`make xinxin`) for the runs that seat it, and where the carried runs' environments live.
#   LAB_ENVS (default ../hearts-env-lab, beside the checkout): the git worktrees and venvs of lab/long-runs/restore.sh
#   HEARTS_ENV_XINXIN (default third_party/xinxin-driver/build/xinxin_driver of this checkout)
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1
export HEARTS_ENV_XINXIN=${HEARTS_ENV_XINXIN:-$PWD/third_party/xinxin-driver/build/xinxin_driver}
LAB_ENVS=${LAB_ENVS:-../hearts-env-lab}

# carried_venv FOLDER: the venv restore.sh built for a carried run (its commit in lab/archives/RUNS)
carried_venv() {
  local commit
  commit=$(awk -v f="$1" '$1 == f {print $2}' lab/archives/RUNS)
  [ -n "$commit" ] || { echo "no carried run $1 in lab/archives/RUNS" >&2; return 1; }
  echo "$LAB_ENVS/venv-${commit:0:7}"
}

stamp() { echo "=== $(date -u +%FT%TZ) $*"; }
