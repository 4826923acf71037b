"""The Moscow Campaign (SPI 1972): rules-enforcing engine (see docs/TMC_RULES.md)."""
