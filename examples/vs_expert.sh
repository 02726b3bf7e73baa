#!/usr/bin/env bash
# The judge against `hard` (expert:1000, the expert's budget within its 0.4 s on a quiet machine, as a
# number of worlds so that a busy machine cannot weaken it), in pieces of duplicate deals, resumable:
# a finished piece has its summary.json and is skipped when the script runs again. docs/judge.md,
# "Against the expert", and docs/strength.json give the figures it made.
#
#   examples/vs_expert.sh PLAYERS PIECES GAMES_A_PIECE [PRESET] [BOT]
#   examples/vs_expert.sh 2 40 50          # 2,000 games heads-up, seeds 3001-3040 (about 2 h, 2 cores)
#
# Piece k plays seed 3000 + k into runs/vs-expert-<PLAYERS>p/seed<S>/ (OUT=DIR for another folder:
# another BOT on the same deals), one piece a core at a time (JOBS=N sets how many at once; FIRST=K
# starts at piece K, to add pieces to a run whose folder is gone); at the end it prints the bot's
# games won with a 95% Wilson interval over every finished piece in the folder.
set -euo pipefail
players=${1:?players}; pieces=${2:?pieces}; games=${3:?games a piece}
preset=${4:-scat}; bot=${5:-judge}
out=${OUT:-runs/vs-expert-${players}p}
mkdir -p "$out"
others=$(printf ',expert:1000%.0s' $(seq 2 "$players"))
play() {  # piece $1, unless it is finished
    local seed=$((3000 + $1)) piece
    piece=$out/seed$seed
    [ -f "$piece/summary.json" ] && return
    rm -rf "$piece"
    echo "$(date -u +%T) seed $seed"
    nice -n 5 thirtyone arena --bots "$bot$others" --players "$players" --games "$games" \
        --seed "$seed" --preset "$preset" --jobs 1 --out "$piece" >"$piece.log" 2>&1
}
export -f play; export out players games preset bot others
seq "${FIRST:-1}" "$pieces" | xargs -P "${JOBS:-$(nproc)}" -I{} bash -c 'play {}'
python3 - "$out" "$bot" <<'PY'
import glob, json, sys
from thirtyone.arena import wilson_interval
won = games = 0
for path in glob.glob(f"{sys.argv[1]}/seed*/summary.json"):
    for row in json.load(open(path))["results"]:
        if row["bot"] == sys.argv[2]:
            won, games = won + row["wins"], games + row["games"]
if not games:
    sys.exit(f"no finished piece in {sys.argv[1]} seats {sys.argv[2]}")
low, high = wilson_interval(won, games)
print(f"{sys.argv[2]}: {won} of {games} games, {won / games:.1%} ({low:.1%}-{high:.1%})")
PY
