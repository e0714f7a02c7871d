#!/usr/bin/env bash
# One seat of SPEC against three seats of a xinxin rung (xinxin, xinxin-literature, xinxin-upstream) on the
# reference track, into runs/bench/RULES-TIER-OPPONENT-NAME, resumed if begun; it is then paired with the reference
# row of PAIR (default apprentice) on the same deals, where one is shipped (results/reference-table/).
#   usage: [VENV=DIR] [JOBS=N] lab/long-runs/vs_xinxin.sh RULES TIER OPPONENT NAME SPEC
#   e.g. lab/long-runs/vs_xinxin.sh openspiel short xinxin-literature moon \
#          "apprentice(weights='runs/apprentice-moon/tuned/apprentice.npz')"
#   VENV (default .venv): the environment whose code SPEC plays, e.g. a carried run's (lab/long-runs/restore.sh)
#   PAIR (default apprentice): the bundled agent whose shipped reference row the run is paired with
source "$(dirname "$0")/env.sh"
usage="usage: lab/long-runs/vs_xinxin.sh RULES TIER OPPONENT NAME SPEC"
RULES=${1:?$usage} TIER=${2:?$usage} OPP=${3:?$usage} NAME=${4:?$usage} SPEC=${5:?$usage}
VENV=${VENV:-.venv}
JOBS=${JOBS:-1}
OUT=runs/bench/$RULES-$TIER-$OPP-$NAME
R=; [ -e "$OUT/manifest.json" ] && R=--resume
stamp "$NAME $SPEC vs $OPP ($RULES, $TIER) $R jobs $JOBS"
"$VENV/bin/hearts-env" benchmark "$SPEC" --track reference --rules "$RULES" --tier "$TIER" --opponents "$OPP" \
  --out "$OUT" --jobs "$JOBS" $R
rc=$?
stamp "$NAME exit $rc"
ROW=results/reference-table/v1/$RULES/$TIER/$OPP/${PAIR:-apprentice}.json
[ $rc = 0 ] && [ -e "$ROW" ] && "$VENV/bin/hearts-env" benchmark compare "$OUT/result.json" "$ROW"
exit $rc
