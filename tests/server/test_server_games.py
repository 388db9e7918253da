"""Whole games through the WebSocket protocol, with every message checked by the oracle:
no message to a seat names a card of another hand or of the undealt deck (FT-10, FA-7)."""

from __future__ import annotations

import pytest
from server_kit import Oracle, Seat, create, service, threaded

from parlour import record

pytestmark = pytest.mark.timeout(120)


def test_fantan_person_and_three_bots_play_to_the_end(client):
    oracle = Oracle()
    service(client).hub.observers.append(oracle)
    j = create(client, "fantan", 4, ["person", "greedy", "random", "greedy"],
               rules={"rounds": 2}, name="Anna", test={"seed": 7})
    me = Seat(client, j["table"], token=j["token"])
    assert me.welcome()["type"] == "welcome"
    assert me.state["table"]["status"] == "waiting"
    spectator = Seat(client, j["table"], watch=j["watch_url"].split("#watch=")[1])
    spectator.welcome()
    me.send({"type": "start"})
    final = me.play_to_end()
    assert final["winners"] is not None
    assert len(final["scores"]) == 2
    assert [r["round"] for r in final["revealed"]] == [1, 2]
    kinds = [e["kind"] for e in final["log"]]
    assert kinds.count("round_end") == 2 and "game_over" in kinds
    spectator.until_state(lambda s: s["table"]["status"] == "over")
    assert all(m["state"]["view"] is None or m["state"]["view"]["hand"] == []
               for m in spectator.messages if "state" in m)
    assert all(op[1][:2] != ["view", "hand"] or op[2] == []
               for m in spectator.messages for op in m.get("delta", []))
    assert oracle.leaks == [], oracle.leaks[:5]
    assert oracle.by_audience[0] > 20 and oracle.by_audience[None] > 20
    rec = client.get(f"/api/tables/{j['table']}/record").json()
    m = record.load(rec)  # the record checks, commitments included (RECORD.md)
    assert m.is_over and all(c.salt for c in m.commits)
    me.close()
    spectator.close()


def test_fantan_forced_passes_are_announced(client):
    j = create(client, "fantan", 3, ["person", "greedy", "greedy"], rules={"rounds": 1},
               test={"seed": 3})
    me = Seat(client, j["table"], token=j["token"])
    me.welcome()
    me.send({"type": "start"})
    final = me.play_to_end()
    forced = [e for e in final["log"] if e["kind"] == "move" and e["by"] == "forced"]
    assert forced, "some seat had nothing to play in this deal"
    assert all(e["move"] == {"pass": True} for e in forced)
    me.close()


def test_fanti_two_people_and_a_bot_through_the_invite_link(client):
    oracle = Oracle()
    service(client).hub.observers.append(oracle)
    j = create(client, "fanti", 3, ["person", "person", "greedy"], rules={"rounds": 2},
               name="Anna", test={"seed": 11})
    invite = j["invite_url"].split("#invite=")[1]
    r = client.post(f"/api/tables/{j['table']}/join", json={"key": invite, "name": "Ben"})
    assert r.status_code == 200 and r.json()["seat"] == 1
    ben_token = r.json()["token"]
    anna = Seat(client, j["table"], token=j["token"])
    ben = Seat(client, j["table"], token=ben_token)
    anna.welcome()
    ben.welcome()
    anna.send({"type": "start"})

    def pick_last(state):  # exercise different collections, not only the first
        return state["view"]["legal"][-1]

    a, b = threaded([anna.play_to_end, lambda: ben.play_to_end(pick_last)])
    assert a["totals"] == b["totals"] and a["winners"] == b["winners"]
    assert oracle.leaks == [], oracle.leaks[:5]
    assert oracle.by_audience[0] > 20 and oracle.by_audience[1] > 20
    moves = [e for e in a["log"] if e["kind"] == "move"]
    assert any(e["move"]["take"] for e in moves)
    anna.close()
    ben.close()


def test_bots_only_table_starts_by_itself_and_finishes(client):
    oracle = Oracle()
    service(client).hub.observers.append(oracle)
    j = create(client, "fanti", 4, ["greedy", "random", "greedy", "random"],
               rules={"rounds": 1})
    assert j["role"] == "spectator" and j["token"] is None
    s = Seat(client, j["table"], watch=j["watch"])
    s.until_state(lambda st: st["table"]["status"] == "over")
    assert oracle.leaks == []
    assert s.state["winners"]
    s.close()


def test_the_games_list_gives_each_game_usual_table_size(client):
    """Quick play seats the game's own default table (Game.usual_players), not a number
    the page keeps per game name."""
    from parlour.games import GAMES

    listed = {g["name"]: g for g in client.get("/api/games").json()}
    assert {n: g["usual_players"] for n, g in listed.items()} == \
        {n: g.usual_players for n, g in GAMES.items()}
    assert all(g["min_players"] <= g["usual_players"] <= g["max_players"]
               for g in listed.values())


def test_the_table_says_how_scores_are_written(client):
    """FT-7, FT-9: under chips the highest net total wins and scores carry their sign;
    under penalty points the lowest wins (state.table.scoring, from the game)."""
    for stakes, expected in (("chips", {"lower_wins": False, "signed": True}),
                             ("points", {"lower_wins": True, "signed": False})):
        j = create(client, "fantan", 3, ["person", "greedy", "greedy"],
                   rules={"stakes": stakes})
        me = Seat(client, j["table"], token=j["token"])
        assert me.welcome()["state"]["table"]["scoring"] == expected
        me.close()
