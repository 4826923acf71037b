"""MOCKBA research adapters (the env contract of the game kit)."""
