#!/usr/bin/env bash
# Reference-table runs (issue 36), one agent after another: ref_queue.sh OPPONENT TIER AGENT...
# Each run is runs/bench/ref-OPPONENT-TIER-AGENT, resumed if begun; a finished run is packed into
# docs/reference-table/v1/openspiel/TIER/OPPONENT/AGENT.json (then `python tools/docs_tables.py` writes the table).
# Stops at the first pause (exit 75). VENV: the environment of the code the runs play (carry/RUNS); JOBS (default 1).
set -u
cd /work/main
OPP=$1 TIER=$2; shift 2
VENV=${VENV:?name the run environment, e.g. VENV=/work/runvenv-0988afd}
JOBS=${JOBS:-1}
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1
export HEARTS_ENV_XINXIN=/work/main/reference/xinxin/build/xinxin_driver
for AGENT in "$@"; do
  OUT=runs/bench/ref-$OPP-$TIER-$AGENT
  DEST=docs/reference-table/v1/openspiel/$TIER/$OPP/$AGENT.json
  [ -e "$DEST" ] && { echo "$AGENT: shipped"; continue; }
  if [ ! -e "$OUT/result.json" ]; then
    R=; [ -e "$OUT/manifest.json" ] && R=--resume
    echo "=== $(date -u +%FT%TZ) $AGENT vs $OPP ($TIER) $R jobs $JOBS"
    "$VENV/bin/hearts-env" benchmark "$AGENT" --track reference --rules openspiel --tier "$TIER" --opponents "$OPP" \
      --out "$OUT" --jobs "$JOBS" $R
    rc=$?
    echo "=== $(date -u +%FT%TZ) $AGENT exit $rc"
    [ $rc = 75 ] && exit 75
    [ $rc != 0 ] && continue
  fi
  mkdir -p "$(dirname "$DEST")" && "$VENV/bin/hearts-env" benchmark pack "$OUT" "$DEST" && echo "$AGENT: packed"
done
