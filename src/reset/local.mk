## src/reset — see doc/ARCHITECTURE.md.
