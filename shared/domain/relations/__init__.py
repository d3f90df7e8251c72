"""Typed entity relations: canonical relationship names, entity-name normalisation, the
``metadata.knowledge_work`` profile, connector envelopes, the writer and the recall intent.
See docs/relations.md."""
