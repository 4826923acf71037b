"""MOCKBA - La battaglia di Mosca 1941 (International Team 1984, Roberto Bonsi): seed 000 on the
game kit; its lost tables, order of battle and map reconstructed (data/, provenance per file)."""
