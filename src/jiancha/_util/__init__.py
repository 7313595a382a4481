"""Small helpers shared by every domain: JSONL, atomic writes, hashing, lazy imports, provenance."""
