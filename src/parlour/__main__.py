"""``python -m parlour``: the same command line as ``parlour`` (handy where the scripts
folder of a virtual environment is not on ``PATH``)."""

from parlour.cli import main

main()
