#!/usr/bin/env bash
# Whole games on the real OpenGuanDan server with four `guandan-fast client` processes, and a
# summary: games, deals, answers, the server's departures by kind, failures.
#
# Not used by the tests (CI has no Java). Needs JDK 17 and the server's dependencies,
#   apt-get install -y libnetty-java libjackson2-databind-java
# and the server's thin jar from its public repository (GameAI-NJUPT/OpenGuanDan; it carries
# no licence: run it, never copy it into this project), e.g.
#   git -C /work/.mirror/GameAI-NJUPT+OpenGuanDan/repo show HEAD:guandan-java-1.0.0.jar > /tmp/og/guandan-java-1.0.0.jar
#
# Usage: scripts/openguandan_games.sh JAR [GAMES] [OUT] [AGENT0 AGENT1 AGENT2 AGENT3]
#   GAMES: games in the one room (default 30); OUT: folder of the logs (default a new temp dir);
#   agents default to random, minplays, random:seed=2, minplays.
# Exit code: 0 when every client finished the room's games, else 1.
set -u
JAR=$(realpath "${1:?usage: $0 JAR [GAMES] [OUT] [AGENT0 AGENT1 AGENT2 AGENT3]}")
GAMES=${2:-30}
OUT=${3:-$(mktemp -d)}
shift $(( $# < 3 ? $# : 3 ))
AGENTS=("${@:-}")
[ ${#AGENTS[@]} -eq 4 ] || AGENTS=(random minplays random:seed=2 minplays)
PORT=${PORT:-8181}
URL=ws://127.0.0.1:$PORT
mkdir -p "$OUT"

J=/usr/share/java
CP=$JAR:$J/netty-all.jar:$J/netty-buffer.jar:$J/netty-codec.jar:$J/netty-codec-http.jar:$J/netty-common.jar
CP=$CP:$J/netty-handler.jar:$J/netty-resolver.jar:$J/netty-transport.jar
CP=$CP:$J/jackson-databind.jar:$J/jackson-core.jar:$J/jackson-annotations.jar
# run from OUT: the server writes its statistics (log.txt) into its working directory
(cd "$OUT" && exec java -Dserver.port="$PORT" -cp "$CP" com.guandan.GuandanServer > server.log 2>&1) &
SERVER=$!
trap 'kill $SERVER 2>/dev/null; wait $SERVER 2>/dev/null' EXIT
for _ in $(seq 100); do
  grep -q "WebSocket" "$OUT/server.log" 2>/dev/null && break
  sleep 0.2
done

START=$(date +%s)
CLIENTS=()
guandan-fast client --url "$URL" --agent "${AGENTS[0]}" --create-room "$GAMES" --seat 0 --log "$OUT/seat0.jsonl" \
  > "$OUT/seat0.out" 2> "$OUT/seat0.err" &
CLIENTS+=($!)
sleep 1  # the room exists once seat 0 has created it (the server's first room is number 1)
for SEAT in 1 2 3; do
  guandan-fast client --url "$URL" --agent "${AGENTS[$SEAT]}" --join 1 --seat "$SEAT" --log "$OUT/seat$SEAT.jsonl" \
    > "$OUT/seat$SEAT.out" 2> "$OUT/seat$SEAT.err" &
  CLIENTS+=($!)
done
FAILED=0
for SEAT in 0 1 2 3; do
  wait "${CLIENTS[$SEAT]}" || { echo "seat $SEAT exited with code $?"; FAILED=1; }
done
echo "$(( $(date +%s) - START )) s for the room's $GAMES games; logs in $OUT"

python - "$OUT" <<'EOF'
import collections, json, pathlib, re, sys

out = pathlib.Path(sys.argv[1])
for seat in range(4):
    rows = [json.loads(line) for line in (out / f"seat{seat}.jsonl").open()]
    got = [r["msg"] for r in rows if r["dir"] == "recv"]
    deals = sum(m.get("stage") == "episodeOver" for m in got)
    levels = [m["levelCard"] for m in got if m.get("stage") == "beginning"]
    games = 1 + sum(1 for a, b in zip(levels, levels[1:]) if b == "2" and a != "2") if levels else 0
    final = next((m for m in got if m.get("stage") == "gameResult"), None)
    text = (out / f"seat{seat}.out").read_text()
    departures = re.search(r"server departures from RULES.md: (.*)", text)
    extra = re.search(r"answers not the agent's own choice: .*", text)
    errors = [line for line in (out / f"seat{seat}.err").read_text().splitlines() if line.startswith(("ERROR", "WARNING"))]
    kinds = collections.Counter(re.sub(r"seat \d+: ", "", line).split(":")[0] for line in errors)
    if seat == 0:  # who won each game: the first out of its last deal (a new game begins at 2:
        # on the server's rules no deal after a played one is at 2, fail_at_a_then_up)
        winners, last = [], None
        for m in got:
            if m.get("stage") == "episodeOver":
                last = m["order"][0] % 2
            elif m.get("stage") == "beginning" and m.get("levelCard") == "2" and last is not None:
                winners.append(last)
                last = None
        winners += [] if last is None or final is None else [last]  # the last game, when it ended
        print(f"games won: team 0 (seats 0, 2) {winners.count(0)}, team 1 (seats 1, 3) {winners.count(1)}")
    print(f"seat {seat}: {games} games, {deals} deals, final {final and final.get('victoryRank')}; "
          f"departures: {departures.group(1) if departures else 'no summary (the client did not finish)'}")
    if extra:
        print(f"  {extra.group(0)}")
    for kind, count in kinds.most_common():
        print(f"  {count} x {kind}")
EOF
exit $FAILED
