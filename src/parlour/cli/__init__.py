"""The ``parlour`` command line."""

from parlour.cli.app import app, main

__all__ = ["app", "main"]
