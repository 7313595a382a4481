"""Build PDP-Bench-style datasets from raw prosecutorial documents (the paper's Section 3.2 as a tool).

Stages, each a module of pure functions: ``ingest`` (txt/html/pdf → document body and type, page furniture
dropped), ``sections`` + ``extract`` (segmentation by structure, rule track → ``PDPRecord``; label from the CPL
basis in 2012 or 2018 numbering; what cannot be read is flagged, never dropped), ``outcomes`` (each document
extracted / flagged / rejected, duplicates, the yield per class), ``llm_track`` + ``compare`` (independent LLM
track, field-by-field agreement, review decisions), ``checks`` (leakage and quality findings, address
rewriting), ``ner`` + ``deid`` (named-entity recogniser and context rules, de-identification, residue scan),
``export`` (JSONL, Parquet, DatasetDict + card). ``pipeline`` chains them, on several processes through
``workers``; ``jiancha build …`` is the CLI.
"""
