#!/usr/bin/env bash
# Issue 64, part 2: expert iteration (hearts_baselines.apprentice.expert) into runs/expert: rounds of data labelled by
# the gated searcher around the round's apprentice (against xinxin at OpenSpiel's setting, and the apprentice's own
# play labelled), a fit from that apprentice, and a check on 400 held-out deals against xinxin that decides whether
# the next round starts from the fit; resumable at every stage (the units written, the fit's checkpoints, the check's
# games, rounds.json). SIGTERM loses at most the unit, epoch or games in progress.
#   usage: [VENV=DIR] [JOBS=N] [ROUNDS=3] lab/long-runs/expert.sh
#   VENV: the environment of a fixed commit with the extras search,benchmark,oracle,train (never a checkout with edits
#   in flight)
source "$(dirname "$0")/env.sh"
VENV=${VENV:-.venv} JOBS=${JOBS:-1} ROUNDS=${ROUNDS:-3}
stamp "expert iteration, rounds $ROUNDS, jobs $JOBS"
"$VENV/bin/python" -m hearts_baselines.apprentice.expert --out runs/expert --rounds "$ROUNDS" --deals 1200 \
  --worlds 80 --confidence 2 --epochs 5 --lr 1e-4 --check-deals 400 --jobs "$JOBS"
rc=$?
stamp "expert exit $rc"
exit $rc
