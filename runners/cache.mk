# The per-user cache directory the runners' Makefiles keep their builds in, one home for all of
# them (docs/install.md): $XDG_CACHE_HOME/cryptobench, else ~/.cache/cryptobench; empty with
# neither set, and each Makefile then keeps its cache in its own folder. Its Python twin is
# cryptobench.paths.cache_dir (the orchestrator's, which scripts/setup.py reads from its file).
CB_CACHE := $(if $(or $(XDG_CACHE_HOME),$(HOME)),$(or $(XDG_CACHE_HOME),$(HOME)/.cache)/cryptobench)

# $(call cb_keep,KEPT,OUT,BUILD,GLOB): one shell command that copies KEPT (a file or a folder in
# the cache, named after what OUT is built from) to OUT where it is kept, else runs BUILD (which
# makes OUT) and keeps a copy of OUT as KEPT, written under a temporary name and renamed so a
# concurrent build never sees half of one, then keeps only the newest $(KEEP) matching GLOB.
# Copies keep symbolic links as links (node_modules/.bin) and take the copy's time, never the
# kept one's: an OUT older than its checkout's sources reads as a stale build
# (verify/cache.py runner_digest).
KEEP ?= 3
cb_keep = rm -rf $(2); if [ -e $(1) ]; then mkdir -p $(dir $(2)) && cp -RP $(1) $(2) && touch $(1); \
  else $(3) && mkdir -p $(dir $(1)) && cp -RP $(2) $(1).$$$$ \
  && { mv -T $(1).$$$$ $(1) 2>/dev/null || rm -rf $(1).$$$$; } \
  && ls -td $(4) | tail -n +$$(($(KEEP) + 1)) | xargs rm -rf; fi
