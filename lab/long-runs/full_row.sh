#!/usr/bin/env bash
# One agent's full-tier leaderboard row under the dealer (issue 35), best with nothing else running (`ismcts`: about
# 4 h with --jobs 2): starts or resumes runs/bench/full-AGENT, and packs the row when the run finishes.
#   usage: [VENV=DIR] [JOBS=N] [OUT=DIR] [DEST=FILE] lab/long-runs/full_row.sh AGENT
#   VENV (default .venv): the environment whose code the run plays; OUT (default runs/bench/full-AGENT);
#   DEST (default results/leaderboard/v1/full/AGENT.json); JOBS (default 2)
set -u
source "$(dirname "$0")/env.sh"
AGENT=${1:?usage: lab/long-runs/full_row.sh AGENT}
VENV=${VENV:-.venv}
OUT=${OUT:-runs/bench/full-$AGENT}
DEST=${DEST:-results/leaderboard/v1/full/$AGENT.json}
JOBS=${JOBS:-2}
R=; [ -e "$OUT/manifest.json" ] && R=--resume  # a begun run has its manifest
stamp "$AGENT: start sitting $R jobs $JOBS"
"$VENV/bin/hearts-env" benchmark "$AGENT" --tier full --out "$OUT" --jobs "$JOBS" $R
rc=$?
stamp "$AGENT: exit $rc"
if [ $rc = 0 ]; then
  "$VENV/bin/hearts-env" benchmark pack "$OUT" "$DEST" && echo packed
fi
exit $rc
