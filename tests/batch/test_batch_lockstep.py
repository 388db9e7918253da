"""FanTanBatch: rounds stepping together with caller-chosen moves."""

from __future__ import annotations

import numpy as np
import pytest
from batch_variants import FANTAN_VARIANTS, variant_id

from parlour import PASS
from parlour.batch import simulate, stream
from parlour.games.fantan.lockstep import FanTanBatch
from parlour.games.fantan.rules import FANTAN


@pytest.mark.parametrize("rules", FANTAN_VARIANTS, ids=variant_id)
def test_stream_driven_steps_equal_the_playout_kernel(rules: dict) -> None:
    players = 3 + FANTAN_VARIANTS.index(rules) % 6
    fb = FanTanBatch(players, rules, batch=40).reset(seed=21, first_game=5, rnd=1)
    while not fb.done.all():
        fb.step(fb.stream_moves())
    res = simulate("fantan", players, rules, games=40, seed=21, first_game=5)
    assert (fb.scores() == res.scores[:, 1]).all()
    assert (fb.nmoves == res.moves[:, 1]).all()
    assert (fb.winner == res.round_winner[:, 1]).all()


@pytest.mark.parametrize("rules", FANTAN_VARIANTS[::3], ids=variant_id)
def test_masks_and_scores_match_the_step_engine_under_any_policy(rules: dict) -> None:
    """Moves drawn by numpy from the legal mask; the step engine checks every one."""
    players, batch, seed = 4, 12, 5
    full = FANTAN.rules(players, rules)
    fb = FanTanBatch(players, rules, batch).reset(seed, 0, 0)
    rounds = [FANTAN.new_round(full, players, int(fb.dealer[b]), stream.deck(seed, b, 0))
              for b in range(batch)]
    rng = np.random.default_rng(3)
    while not fb.done.all():
        mask = fb.legal_mask()
        moves = np.full(batch, PASS)
        for b, r in enumerate(rounds):
            assert fb.current_player[b] == r.current_player
            legal = np.flatnonzero(mask[b]).tolist()
            assert legal == r.legal_moves()
            if legal:
                moves[b] = rng.choice(legal)
                r.apply(int(moves[b]))
        fb.step(moves)
    assert fb.scores().tolist() == [r.score() for r in rounds]


def test_an_illegal_move_changes_nothing() -> None:
    fb = FanTanBatch(4, batch=3).reset(1)
    before = (fb.hands.copy(), fb.turn.copy(), fb.nmoves.copy())
    moves = fb.stream_moves()
    moves[1] = PASS  # the 7D holder must open (FT-4)
    with pytest.raises(ValueError, match="round 1"):
        fb.step(moves)
    assert (fb.hands == before[0]).all() and (fb.turn == before[1]).all()
    assert (fb.nmoves == before[2]).all()
    with pytest.raises(ValueError, match="shape"):
        fb.step(np.zeros(2, np.int64))
