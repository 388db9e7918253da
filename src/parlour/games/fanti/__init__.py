"""Fanti: the game's rules and every part the generic layers use (:mod:`parlour.kit`)."""
