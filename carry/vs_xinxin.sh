#!/bin/bash
# usage: [VENV=DIR] [JOBS=N] runs/vs_xinxin.sh RULES TIER OPPONENT NAME SPEC
#   one seat of SPEC against three seats of a xinxin rung (xinxin, xinxin-literature, xinxin-upstream) into
#   runs/bench/RULES-TIER-OPPONENT-NAME, resumed if begun; on `openspiel` it is then paired with the bundled
#   apprentice's reference row on the same deals, where one is shipped. E.g. runs/vs_xinxin.sh openspiel short
#   xinxin-literature moon "apprentice(weights='/work/moon.npz')"
#   VENV (default .venv): the environment whose code SPEC plays, e.g. a carried run's /work/runvenv-COMMIT
cd /work/main
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1
export HEARTS_ENV_XINXIN=/work/main/reference/xinxin/build/xinxin_driver
RULES=$1 TIER=$2 OPP=$3 NAME=$4 SPEC=$5 VENV=${VENV:-.venv}
OUT=runs/bench/$RULES-$TIER-$OPP-$NAME
R=; [ -e "$OUT/manifest.json" ] && R=--resume
echo "=== $(date -u +%FT%TZ) $NAME $SPEC vs $OPP ($RULES, $TIER) $R jobs ${JOBS:-1}"
$VENV/bin/hearts-env benchmark "$SPEC" --track reference --rules "$RULES" --tier "$TIER" --opponents "$OPP" \
  --out "$OUT" --jobs "${JOBS:-1}" $R
rc=$?
echo "=== $(date -u +%FT%TZ) $NAME exit $rc"
ROW=docs/reference-table/v1/$RULES/$TIER/$OPP/apprentice.json
[ $rc = 0 ] && [ -e "$ROW" ] && $VENV/bin/hearts-env benchmark compare "$OUT/result.json" "$ROW"
exit $rc
