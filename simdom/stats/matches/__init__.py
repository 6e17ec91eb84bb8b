"""Match-mode statistics (docs/rules.md 12): wins, length, first lead, edges, equity, and their answers."""
