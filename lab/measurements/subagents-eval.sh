#!/bin/bash
# Issue 21 evaluation of the bundled run (runs/subagents21). Phase 1: cheap rows on 2 cores.
cd "$(dirname "$0")/../.."
W=runs/subagents21/subagents.npz
R=runs/subagents21/steps
E=runs/sub21/eval
A() { name=$1; shift; [ -s $E/$name.json ] && return; .venv/bin/hearts-env arena "$@" --jobs 1 --json --out $E/$name.jsonl --resume > $E/$name.json 2> $E/$name.err; echo "$name done $(date +%T)"; }
M() { name=$1; shift; [ -s $E/$name.json ] && return; .venv/bin/python -m hearts_baselines.subagents.moonstats --deals 1000 --weights $W "$@" > $E/$name.json; echo "$name done $(date +%T)"; }
S="subagents(weights='$W')"
F="subagents(weights='$W', moon=False, breaker=False)"
NB="subagents(weights='$W', breaker=False)"
H="heuristic heuristic heuristic"
case $1 in
a)
A t3r1-heuristic "subagents(weights='$R/10_play_normal_r2.npz', moon=False, breaker=False)" $H --rules "standard(game=deal, passing=none, moon=off)" --deals 1000
A t3r2-heuristic "subagents(weights='$R/14_pass_moon_r2.npz', moon=False, breaker=False)" $H --rules "standard(game=deal, moon=off)" --deals 1000
A t3r3-heuristic "$F" $H --rules "standard(game=deal, moon=off)" --deals 1000
A t4r1-heuristic "subagents(weights='$R/12_decide_moon_early_r2.npz', breaker=False, moon_threshold=0.96)" $H --rules "standard(game=deal, passing=none)" --deals 1000
A t4r2-heuristic "$NB" $H --deals 1000
A full-heuristic "$S" $H --deals 1000
A round1-heuristic "subagents(weights='$R/09_decide_breaker.npz')" $H --deals 1000
A moon096-heuristic "subagents(weights='$W', moon_threshold=0.96)" $H --deals 1000
A breaker096-heuristic "subagents(weights='$W', breaker_threshold=0.96)" $H --deals 1000
A goal-random "$S" random --deals 1000
A goal-greedy "$S" greedy --deals 1000
A goal-heuristic "$S" heuristic --deals 1000
;;
b)
A t5-on "$S" "$NB" "$NB" "$NB" --deals 1000
A t5-off "$NB" --deals 1000
M moonstats-heuristic --opponent heuristic
M moonstats-heuristic-nobreaker --opponent heuristic --no-breaker
A match-heuristic "$S" $H --rules "standard(game=match)" --deals 250
A full-mcts "$S" mcts mcts mcts --deals 1000
;;
c)
A t3r3-mcts "$F" mcts mcts mcts --rules "standard(game=deal, moon=off)" --deals 1000
A t4r2-mcts "$NB" mcts mcts mcts --deals 1000
;;
d)
M moonstats-mcts --opponent mcts
A match-mcts "$S" mcts mcts mcts --rules "standard(game=match)" --deals 100
;;
e)
A t3r1-mcts "subagents(weights='$R/10_play_normal_r2.npz', moon=False, breaker=False)" mcts mcts mcts --rules "standard(game=deal, passing=none, moon=off)" --deals 1000
;;
g)
A t3r2-mcts "subagents(weights='$R/14_pass_moon_r2.npz', moon=False, breaker=False)" mcts mcts mcts --rules "standard(game=deal, moon=off)" --deals 1000
;;
f)
A t4r1-mcts "subagents(weights='$R/12_decide_moon_early_r2.npz', breaker=False, moon_threshold=0.96)" mcts mcts mcts --rules "standard(game=deal, passing=none)" --deals 1000
;;
esac
