"""The first-double decisions (simdom run --decisions): the hold table and its answer."""
