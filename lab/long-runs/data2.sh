#!/usr/bin/env bash
# Issue 37: search data for a second apprentice (teacher pimc(n=40, policy='apprentice'), seed 1, 20,000 deals) into
# runs/apprentice2/data; resumable: the units written are kept and the data does not depend on --jobs. SIGTERM loses
# only the unit in progress. A carried run (lab/archives/RUNS): restore it first (lab/long-runs/restore.sh).
#   usage: [VENV=DIR] [JOBS=N] [OUT=DIR] lab/long-runs/data2.sh
#   VENV (default: the carried run's environment, restore.sh's), OUT (default runs/apprentice2/data), JOBS (default 1)
source "$(dirname "$0")/env.sh"
VENV=${VENV:-$(carried_venv apprentice2/data)} || exit 2
OUT=${OUT:-runs/apprentice2/data}
JOBS=${JOBS:-1}
stamp "data jobs $JOBS"
"$VENV/bin/python" -m hearts_baselines.apprentice.data --out "$OUT" --deals 20000 --seed 1 \
  --jobs "$JOBS" --searcher "pimc(n=40, policy='apprentice')"
rc=$?
stamp "data exit $rc"
exit $rc
