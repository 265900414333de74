"""Refereed mode of a 掼蛋 deal, one module per concept (see ``play`` for how the table works)."""
