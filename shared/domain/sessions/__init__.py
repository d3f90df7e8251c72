"""Sessions: working memory with enforced TTLs, checkpoints, commit into long-term memory, context packs and
deltas."""
