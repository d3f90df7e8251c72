"""The knowledgebase: articles generated from a workspace's graph (``graph``, ``articles``, ``service``)."""
