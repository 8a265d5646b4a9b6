## doc — the man page and the written references.
dist_man_MANS += doc/lagtop.1
EXTRA_DIST += doc/ARCHITECTURE.md
