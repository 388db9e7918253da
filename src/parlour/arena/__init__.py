"""The arena: duplicate-deal tournaments between bots, and variant balance reports.

* :mod:`.lineup`: who sits where in each seat rotation, and how bots are seeded;
* :mod:`.jobs`: one game (a deal played with one seat rotation), as a picklable job;
* :mod:`.backends`: running the jobs in this process, in worker processes or on Ray;
* :mod:`.stats`: win rates with confidence intervals clustered by deal, ratings;
* :mod:`.tournament`: the tournament as a whole; :mod:`.report`: tables, JSON, charts;
* :mod:`.analyze`: the balance report for game designers.
"""
