#!/usr/bin/env bash
# Pause every running hearts-env benchmark, arena or exploit run cleanly: SIGTERM to each main process (the games in
# play finish, the sitting ends `paused`, exit 75), then wait for them to end. Never kill -9: a sitting that died
# bars its run from the leaderboard.
#   usage: [WAIT=SECONDS] lab/long-runs/pause.sh   (WAIT, default 900: how long to wait before giving up)
pids=$(pgrep -f 'bin/hearts-env (benchmark|arena|exploit)')
[ -z "$pids" ] && { echo "nothing running"; exit 0; }
for p in $pids; do kill -TERM "$p"; done
for i in $(seq 1 "${WAIT:-900}"); do
  alive=0; for p in $pids; do kill -0 "$p" 2>/dev/null && alive=1; done
  [ $alive = 0 ] && { echo "paused after ${i} s"; exit 0; }
  sleep 1
done
echo "still running after ${WAIT:-900} s"; exit 1
