"""Legal knowledge layer: decision labels, article citations, CPL numbering, statutes and charges.

Every Chinese legal string or regex the package needs is defined once in this package and reused.
"""
