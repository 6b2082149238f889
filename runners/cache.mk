# The per-user cache directory the runners' Makefiles keep their builds in, one home for all of
# them (docs/install.md): $XDG_CACHE_HOME/cryptobench, else ~/.cache/cryptobench; empty with
# neither set, and each Makefile then keeps its cache in its own folder. Its Python twin is
# cryptobench.paths.cache_dir (the orchestrator's, which scripts/setup.py reads from its file).
CB_CACHE := $(if $(or $(XDG_CACHE_HOME),$(HOME)),$(or $(XDG_CACHE_HOME),$(HOME)/.cache)/cryptobench)
