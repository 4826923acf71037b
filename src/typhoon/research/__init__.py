"""Research runs over many games (issue 16): tournaments with ratings, balance studies with
plots, on the local process pool or on Ray. Every game is seeded by its index in the run, never
by the worker that plays it, so a run gives the same games on any backend."""
