"""Moscow Attacked! (Lou Coatney, 2002): seed 001 on the game kit; map and counters reconstructed."""
