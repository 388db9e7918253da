"""Engine against kernel: for every registered game whose kit has a ``kernel`` part, the
batch engine's random games are the step engine's games, record for record, in every
variant (the differential tests of tests/batch go deeper per game)."""

from __future__ import annotations

import pytest
from conformance_kit import Variant, all_variants, variant_id

from parlour import record
from parlour.batch import simulate, stream_match
from parlour.games import KITS

WITH_KERNEL = [v for v in all_variants() if KITS[v[0]].part("kernel") is not None]


def test_the_product_games_have_kernels():
    assert {v[0] for v in WITH_KERNEL} >= {"fantan", "fanti"}


@pytest.mark.parametrize("variant", WITH_KERNEL, ids=variant_id)
def test_batch_kernel_games_are_the_step_engines_games(variant: Variant):
    name, players, rules = variant
    seed = 500 + WITH_KERNEL.index(variant)
    res = simulate(name, players, {**rules, "rounds": 2}, games=2, seed=seed, records=True)
    assert res.records is not None
    for i, data in enumerate(res.records):
        assert data == record.dump(stream_match(name, players, {**rules, "rounds": 2}, seed, i))
