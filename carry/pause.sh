#!/usr/bin/env bash
# Pause every running hearts-env benchmark cleanly: SIGTERM to each main process (the games in play finish, the
# sitting ends `paused`, exit 75), then wait for them to end. Never kill -9: a died sitting bars a leaderboard row.
pids=$(pgrep -f 'bin/hearts-env (benchmark|arena|exploit)')
[ -z "$pids" ] && { echo "nothing running"; exit 0; }
for p in $pids; do kill -TERM "$p"; done
for i in $(seq 1 900); do
  alive=0; for p in $pids; do kill -0 "$p" 2>/dev/null && alive=1; done
  [ $alive = 0 ] && { echo "paused after ${i} s"; exit 0; }
  sleep 1
done
echo "still running after 900 s"; exit 1
