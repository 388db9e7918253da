"""Game packages that exist only for the tests (see ``gin_lite``)."""
