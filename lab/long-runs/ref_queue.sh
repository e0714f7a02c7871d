#!/usr/bin/env bash
# Reference-table runs (issue 36), one agent after another, at OpenSpiel's setting.
#   usage: [VENV=DIR] [JOBS=N] lab/long-runs/ref_queue.sh OPPONENT TIER AGENT...
# Each run is runs/bench/ref-OPPONENT-TIER-AGENT, resumed if begun; a finished run is packed into
# results/reference-table/v1/openspiel/TIER/OPPONENT/AGENT.json (then `python lab/docs_tables.py` writes the table).
# Stops at the first pause (exit 75). VENV (default .venv): the environment of the code the runs play (a carried
# run's: lab/archives/RUNS, lab/long-runs/restore.sh); JOBS (default 1).
set -u
source "$(dirname "$0")/env.sh"
usage="usage: lab/long-runs/ref_queue.sh OPPONENT TIER AGENT..."
OPP=${1:?$usage} TIER=${2:?$usage}
shift 2
VENV=${VENV:-.venv}
JOBS=${JOBS:-1}
for AGENT in "$@"; do
  OUT=runs/bench/ref-$OPP-$TIER-$AGENT
  DEST=results/reference-table/v1/openspiel/$TIER/$OPP/$AGENT.json
  [ -e "$DEST" ] && { echo "$AGENT: shipped"; continue; }
  if [ ! -e "$OUT/result.json" ]; then
    R=; [ -e "$OUT/manifest.json" ] && R=--resume
    stamp "$AGENT vs $OPP ($TIER) $R jobs $JOBS"
    "$VENV/bin/hearts-env" benchmark "$AGENT" --track reference --rules openspiel --tier "$TIER" --opponents "$OPP" \
      --out "$OUT" --jobs "$JOBS" $R
    rc=$?
    stamp "$AGENT exit $rc"
    [ $rc = 75 ] && exit 75
    [ $rc != 0 ] && continue
  fi
  mkdir -p "$(dirname "$DEST")" && "$VENV/bin/hearts-env" benchmark pack "$OUT" "$DEST" && echo "$AGENT: packed"
done
