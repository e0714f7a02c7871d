#!/bin/bash
# Issue 17: the apprentice's stages in the arena (one learned seat against three copies of an opponent, the four
# rotations of 1000 deals, every pass direction), and pimc with the apprentice inside it. Each run writes its
# records to $E/NAME.jsonl (resumable) and its summary to $E/NAME.json; pair two runs deal for deal with
# python lab/measurements/paired.py $E/A.jsonl $E/B.jsonl PREFIX
cd "$(dirname "$0")/../.."
E=${E:-runs/apprentice/eval}
mkdir -p $E
A() { name=$1; shift; [ -s $E/$name.json ] && return; .venv/bin/hearts-env arena "$@" --deals 1000 --jobs ${JOBS:-2} --json --out $E/$name.jsonl --resume > $E/$name.json 2> $E/$name.err; echo "$name done $(date +%T)"; }
WARM="apprentice(weights='runs/apprentice/warm/apprentice.npz')"
PPO="apprentice(weights='runs/apprentice/ppo/apprentice.npz')"
PPOH="apprentice(weights='runs/apprentice/ppo-heuristic/apprentice.npz')"  # PPO against heuristic only
PIMC="pimc(n=300, policy='heuristic', rank='heuristic', passing='heuristic')"
case $1 in
heuristic)  # cheap: the learned players against the expert
  A warm-heuristic "$WARM" heuristic heuristic heuristic
  A ppo-heuristic "$PPO" heuristic heuristic heuristic
  A warmq-heuristic "apprentice(weights='runs/apprentice/warm/apprentice.npz', head='q')" heuristic heuristic heuristic
  ;;
ablation)  # PPO without self-play: the same run with all 256 rows against heuristic
  A ppoh-heuristic "$PPOH" heuristic heuristic heuristic
  A ppoh-pimc "$PPOH" "$PIMC" "$PIMC" "$PIMC"
  ;;
pimc)  # about 156,000 pimc decisions a run: 15 minutes on one core
  A warm-pimc "$WARM" "$PIMC" "$PIMC" "$PIMC"
  A ppo-pimc "$PPO" "$PIMC" "$PIMC" "$PIMC"
  ;;
search)  # pimc at equal time per move (6 ms), plain or with the apprentice ranking its candidates, vs heuristic
  A pimc6-heuristic "pimc(n=25, time_limit=0.006)" heuristic heuristic heuristic
  A pimc6rank-heuristic "pimc(n=25, m=2, rank=\"$PPO\", time_limit=0.006)" heuristic heuristic heuristic
  ;;
esac
