"""Rules test suite for Battle for Moscow, written from the rulebook (seed 002) and the
reference data (bfm_data.md), independently of the engine's code."""
