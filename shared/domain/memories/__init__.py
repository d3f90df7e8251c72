"""The memory domain: remember, get, update, forget, list, batch, associations and their wire form."""
