#!/usr/bin/env bash
# Issue 37: outcome data of docs/learned.md (the apprentice's moon positions against xinxin at OpenSpiel's setting,
# each legal card played on twice in the true deal). A data run: killing it loses only the unit in progress.
#   usage: [SEED=N] [SUFFIX=-sN] [DEALS=1200] [VENV=DIR] lab/long-runs/outcomes.sh
#   runs/outcomes/os-k2 (seed 0) is finished (1,200 deals); runs/outcomes/os-k2-s1 (SEED=1 SUFFIX=-s1) is the
#   held-out folder, a carried run (lab/archives/RUNS). VENV (default: that run's environment, restore.sh's).
source "$(dirname "$0")/env.sh"
VENV=${VENV:-$(carried_venv outcomes/os-k2-s1)} || exit 2
exec "$VENV/bin/python" -m hearts_baselines.apprentice.outcomes --out "runs/outcomes/os-k2${SUFFIX:-}" \
  --seed "${SEED:-0}" --deals "${DEALS:-1200}" --jobs 1 --rollouts 2
