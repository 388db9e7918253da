"""The rule variants the batch tests cover, drawn from each game's declared options
(:mod:`option_variants`; imported by the test modules here)."""

from __future__ import annotations

from option_variants import option_variants, variant_id

FANTAN_VARIANTS = option_variants("fantan")
FANTI_VARIANTS = option_variants("fanti")

__all__ = ["FANTAN_VARIANTS", "FANTI_VARIANTS", "variant_id"]
