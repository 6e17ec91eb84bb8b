"""Match-mode statistics (RULES.md 12): wins, length, first lead, edges, equity, and their answers."""
