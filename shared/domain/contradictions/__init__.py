"""Contradictions between memories: the deterministic scan's rules and their resolution by supersede."""
