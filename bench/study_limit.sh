#!/bin/bash
# the machine's limit for this study: two CLI processes (one torch thread each), each running half the variants in series
D=$(mktemp -d)
B="--env CartPole-v1 --epochs 5 --steps_per_epoch 4000 --quiet --exp_name h"
P=${PYTHON:-.venv/bin/python}
export OMP_NUM_THREADS=1
t0=$(date +%s.%N)
( $P -m fastrl.run ppo $B --seed 0 1 --aug None vpg_loss --data_dir $D/a1 > /dev/null; $P -m fastrl.run ppo $B --seed 2 --aug None --data_dir $D/a2 > /dev/null ) &
( $P -m fastrl.run ppo $B --seed 3 4 --aug None vpg_loss --data_dir $D/b1 > /dev/null; $P -m fastrl.run ppo $B --seed 2 --aug vpg_loss --data_dir $D/b2 > /dev/null ) &
wait
t1=$(date +%s.%N)
echo "two halves at once, one thread each: $(echo "$t1 - $t0" | bc) s"
unset OMP_NUM_THREADS
t0=$(date +%s.%N)
$P -m fastrl.run ppo $B --seed 0 1 2 3 4 --aug None vpg_loss --data_dir $D/c > /dev/null
t1=$(date +%s.%N)
echo "serial: $(echo "$t1 - $t0" | bc) s"
