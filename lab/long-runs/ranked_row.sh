#!/usr/bin/env bash
# One agent's ranked leaderboard row (issue 62): a held-out quick run (format once, every deal once) on a secret drawn
# on this machine, packed into results/leaderboard/v1/ranked/quick/ when it finishes; starts or resumes
# runs/bench/run-quick-AGENT (the secret is read back from the run's folder).
#   usage: [VENV=DIR] [JOBS=N] [OUT=DIR] [DEST=FILE] [TIER=quick] [SAMPLE=SHARE] lab/long-runs/ranked_row.sh AGENT
#   VENV (default .venv): the environment whose code the run plays; OUT (default runs/bench/run-TIER-AGENT);
#   DEST (default results/leaderboard/v1/ranked/TIER/AGENT.json); JOBS (default 2); SAMPLE: the share of each rung's
#   games whose ladder cards pack replays (default 1, every card; a full row's pimc rung takes about 40 min whole)
set -u
source "$(dirname "$0")/env.sh"
AGENT=${1:?usage: lab/long-runs/ranked_row.sh AGENT}
VENV=${VENV:-.venv}
TIER=${TIER:-quick}
OUT=${OUT:-runs/bench/run-$TIER-$AGENT}  # a neutral name: the sandbox shows where its covered folder is
DEST=${DEST:-results/leaderboard/v1/ranked/$TIER/$AGENT.json}
JOBS=${JOBS:-2}
SAMPLE=${SAMPLE:-1}
R=; [ -e "$OUT/manifest.json" ] && R=--resume  # a begun run has its manifest, and its secret
stamp "$AGENT: start sitting $R jobs $JOBS"
"$VENV/bin/hearts-env" benchmark "$AGENT" --tier "$TIER" --holdout --out "$OUT" --jobs "$JOBS" $R
rc=$?
stamp "$AGENT: exit $rc"
if [ $rc = 0 ]; then
  mkdir -p "$(dirname "$DEST")"
  "$VENV/bin/hearts-env" benchmark pack "$OUT" "$DEST" --ladder-sample "$SAMPLE" && echo packed
fi
exit $rc
