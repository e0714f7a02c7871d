#!/usr/bin/env bash
# docs/search.md's strength curve: the gated apprentice searcher (`confidence=Z`, searching every playing decision
# for about SECONDS a move) against three xinxin seats at OpenSpiel's setting, OpenSpiel's rules, one point per budget,
# each paired with apprentice-search's reference row on the same deals; resumed where begun (vs_xinxin.sh).
#   usage: [VENV=DIR] [TIER=quick] [Z=2] lab/long-runs/strength_curve.sh SECONDS...
#   e.g. VENV=../hearts-env-lab/venv-abc1234 lab/long-runs/strength_curve.sh 0.03 0.1 0.3 1
#   VENV: the environment of a fixed commit (never a checkout with edits in flight)
source "$(dirname "$0")/env.sh"
[ $# -gt 0 ] || { echo "usage: lab/long-runs/strength_curve.sh SECONDS..." >&2; exit 2; }
TIER=${TIER:-quick} Z=${Z:-2}
for seconds in "$@"; do
  PAIR=apprentice-search JOBS=1 lab/long-runs/vs_xinxin.sh openspiel "$TIER" xinxin "gated-z$Z-$seconds" \
    "pimc(n=40, policy='apprentice', elsewhere='apprentice', confidence=$Z, time_limit=$seconds)" || exit $?
done
