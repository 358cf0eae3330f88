#!/usr/bin/env bash
# The workbench and the CLI on one workspace for an hour under Xvfb, as a
# user would run them side by side: each cycle a search runs in a process of
# its own, the workbench opens File > Open Workspace... and New Workspace...
# in the workspace's folder (a real window, keys sent by xdotool), and the CLI
# lists, pauses and resumes. After each cycle: the POSIX locks the workbench
# holds on the database (/proc/locks) and the inodes of its -wal and -shm.
# A line a cycle; BAD marks a cycle where any of them changed or failed.
# Not part of the suite (it takes an hour).
#
# usage: DUR=3600 tests/soak/workspace_soak.sh [BUILD_DIR] [OUT_DIR]
# needs: xvfb, xdotool, imagemagick (apt-get install xvfb xdotool imagemagick)
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
B=$(cd "${1:-$root/build}" && pwd)
CLI=$B/app/cli/kernelwright-cli
GUI=$B/app/gui/kernelwright
P=$root/resources/problems/cpu/rmsnorm_fwd
W=${2:-/tmp/kernelwright-soak}
DUR=${DUR:-3600}
rm -rf $W; mkdir -p $W/shots; cd $W
export KW_RESOURCES_DIR=$root/resources
Xvfb :77 -screen 0 1600x1000x24 >/dev/null 2>&1 & XV=$!
sleep 2; export DISPLAY=:77
$CLI --db $W/ws.db search start --problem $P --budget 3 --workers 1 --time-budget 0.05 >/dev/null 2>&1
$GUI --workspace $W/ws.db --search 1 > $W/gui.log 2>&1 & G=$!
sleep 8
WIN=$(xdotool search --name Kernelwright | head -1)
inode() { stat -c %i "$1" 2>/dev/null || echo 0; }
locks() { awk -v p=$G -v i=$(inode $W/ws.db) '$5==p {split($6,a,":"); if (a[3]==i) n++} END {print n+0}' /proc/locks; }
wal0=$(inode $W/ws.db-wal); shm0=$(inode $W/ws.db-shm)
echo "start: gui pid $G window $WIN locks $(locks) wal $wal0 shm $shm0"
start=$SECONDS; cycle=0; bad=0
while (( SECONDS - start < DUR )); do
  cycle=$((cycle+1))
  $CLI --db $W/ws.db search start --problem $P --budget 6 --workers 1 --time-budget 0.05 > $W/search-$cycle.log 2>&1 & S=$!
  sleep 3
  for key in ctrl+o ctrl+n; do
    xdotool mousemove 800 690 click 1 2>/dev/null; xdotool key $key 2>/dev/null; sleep 3
    (( cycle % 10 == 1 )) && import -window root $W/shots/cycle-$cycle-$key.png
    xdotool key Escape 2>/dev/null; sleep 1
  done
  l=$(locks)
  out=$($CLI --db $W/ws.db search list 2>&1); rc=$?
  id=$(echo "$out" | awk '$1 ~ /^[0-9]+$/ {print $1}' | sort -n | tail -1)
  $CLI --db $W/ws.db search pause $id >/dev/null 2>&1; sleep 1
  $CLI --db $W/ws.db search resume $id >/dev/null 2>&1
  wait $S; src=$?
  wal=$(inode $W/ws.db-wal); shm=$(inode $W/ws.db-shm)
  status=ok
  { (( rc != 0 )) || (( src != 0 )) || (( l == 0 )) || [[ $wal != $wal0 ]] || [[ $shm != $shm0 ]] || grep -qi malformed <<<"$out"; } && { status=BAD; bad=$((bad+1)); }
  echo "cycle $cycle t=$((SECONDS-start))s locks=$l list_rc=$rc search_rc=$src searches=$id wal=$wal shm=$shm $status"
done
import -window root $W/shots/final.png
echo "cycles $cycle bad $bad; gui alive: $(kill -0 $G 2>/dev/null && echo yes || echo no)"
grep -ci 'malformed' $W/gui.log
kill $G; sleep 1; kill $XV
