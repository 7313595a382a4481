"""Build PDP-Bench-style datasets from raw prosecutorial documents (the paper's Section 3.2 as a tool).

Stages, each a module of pure functions: ``ingest`` (txt/html/pdf → document body, type, deduplication),
``sections`` + ``extract`` (rule track → ``PDPRecord``; label from the CPL basis in 2012 or 2018 numbering),
``llm_track`` + ``compare`` (independent LLM track, field-by-field agreement, review decisions), ``checks``
(leakage and quality findings, address rewriting), ``deid`` (de-identification, residue scan), ``export``
(JSONL, Parquet, DatasetDict + card). ``pipeline`` chains them; ``jiancha build …`` is the CLI.
"""
