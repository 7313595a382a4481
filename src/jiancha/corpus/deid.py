"""Stage 4, de-identification of the four text fields of a record, and a residue scan.

Masked: names of natural persons (suspects, victims, witnesses, relatives, co-offenders, counsel, officials),
found by a named-entity recogniser (``jiancha.corpus.ner``, Baidu LAC) and by context rules
(``jiancha.corpus.name_rules``), then replaced everywhere in the record, consistently within it: 张伟 → 张某,
张伟明 → 张某某, several people sharing a surname → 张某甲 / 张某乙 in order of appearance; and the personal details
of ``jiancha.corpus.pii_patterns`` (numbers, accounts, plates, birth dates, addresses). Amounts, times, charges,
articles, public bodies and procedural events are left as they are. Pure functions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from jiancha.corpus.name_rules import (
    find_names,
    header_aliases,
    header_names,
    listed_beside,
    rule_names,
)
from jiancha.corpus.names import surname_of
from jiancha.corpus.ner import DEFAULT_NER, person_names
from jiancha.corpus.pii_patterns import (
    ADDRESS_UNITS_RE,
    GROUPED_NUMBER_RE,
    HOME_ADDRESS_RE,
    ID_NUMBER_RE,
    LANDLINE_RE,
    MASK,
    MOBILE_RE,
    ONLINE_ACCOUNT_RE,
    PLATE_RE,
    MaskedSpan,
    mask_patterns,
    mask_repeats,
)
from jiancha.corpus.recognised import accept_recognised
from jiancha.corpus.transliterated import DOTTED_NAME_MARK, dotted_names
from jiancha.datasets.records import PDPRecord
from jiancha.law.phrases import PSEUDONYM_MARK, PSEUDONYM_SUFFIXES

#: The record fields that are de-identified.
DEID_FIELDS: tuple[str, ...] = ("person_info", "procedure", "fact", "raw_reasoning_and_decision")
_PSEUDONYM_TAIL = f"(?![{PSEUDONYM_MARK}{PSEUDONYM_SUFFIXES}])"


def name_mapping(names: list[str], text: str) -> dict[str, str]:
    """Real name → 某-form, consistent within one record (see module docstring)."""
    by_surname: dict[str, list[str]] = {}
    for n in names:
        by_surname.setdefault(surname_of(n) or n[0], []).append(n)
    out: dict[str, str] = {}
    mark, first = PSEUDONYM_MARK, PSEUDONYM_SUFFIXES[0]
    for surname, group in by_surname.items():
        if len(group) == 1:
            n = group[0]
            masked = surname + (mark if len(n) - len(surname) == 1 else mark * 2)
            taken = re.search(re.escape(masked) + _PSEUDONYM_TAIL, text)
            out[n] = surname + mark + first if taken else masked
        else:
            for k, n in enumerate(group):
                out[n] = surname + mark + PSEUDONYM_SUFFIXES[k % len(PSEUDONYM_SUFFIXES)]
    return out


@dataclass(frozen=True)
class DeidResult:
    record: PDPRecord
    names: dict[str, str]
    masked: tuple[MaskedSpan, ...] = ()


def record_names(rec: PDPRecord, ner: str = DEFAULT_NER) -> list[str]:
    """Every natural-person name of a record, in order of first appearance: the context rules
    (``jiancha.corpus.name_rules``), the recogniser's person names they accept, and the names listed beside any of
    these."""
    joined = "\n".join(getattr(rec, f) for f in DEID_FIELDS)
    found = dict.fromkeys(rule_names(joined, header_names(rec.person_info)))
    for name in person_names(joined, ner):
        # the recogniser runs a transliterated name into the words around it (因艾力·买买提不通晓): the rules cut it
        for piece in dotted_names(name) if DOTTED_NAME_MARK.search(name) else [name]:
            if accept_recognised(piece, joined):
                found.setdefault(piece)
    found.update(dict.fromkeys(listed_beside(joined, list(found))))
    names = [n for n in found if n in joined]
    # a piece of a longer name that never stands alone is not a second person (周立 inside 周立新)
    names = [n for n in names if not any(n != m and n in m and joined.count(n) == joined.count(m) * m.count(n)
                                         for m in names)]
    return sorted(names, key=joined.find)


def deidentify_record(rec: PDPRecord, ner: str = DEFAULT_NER) -> DeidResult:
    """The record with its four text fields de-identified, the name mapping used, and every span replaced."""
    joined = "\n".join(getattr(rec, f) for f in DEID_FIELDS)
    names = record_names(rec, ner)
    aliases = {a: n for a, n in header_aliases(rec.person_info).items() if a in joined}
    names = [n for n in names if n not in aliases]
    mapping = name_mapping(names, joined)
    # a foreigner's name in the original script gets the pseudonym of its transliteration, or the transliteration
    # itself where that is already masked (丹某某（KOVÁCS DÁNIEL，匈牙利国籍）)
    mapping.update({a: mapping.get(n, n) for a, n in aliases.items() if n in mapping or PSEUDONYM_MARK in n})
    # a name followed by 某 is part of a masked form (巴桑 in 巴桑某某) and stays
    name_re = (re.compile("(?:" + "|".join(map(re.escape, sorted(mapping, key=len, reverse=True))) + f")(?!{PSEUDONYM_MARK})")
               if mapping else None)
    changes = {}
    spans: list[MaskedSpan] = []
    for f in DEID_FIELDS:
        text = getattr(rec, f)
        if name_re is not None:
            spans += [MaskedSpan(f, "name", m.group(0)) for m in name_re.finditer(text)]
            text = name_re.sub(lambda m: mapping[m.group(0)], text)
        changes[f] = mask_patterns(text, f, spans)
    for f in DEID_FIELDS:
        changes[f] = mask_repeats(changes[f], spans, f)
    return DeidResult(replace(rec, **changes), mapping, tuple(spans))


@dataclass(frozen=True)
class Residue:
    """Something that still looks like PII after de-identification."""

    record_id: str
    field: str
    kind: str
    span: str

    def to_dict(self) -> dict[str, str]:
        return {"id": self.record_id, "field": self.field, "kind": self.kind, "span": self.span}


_RESIDUE_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("id_number", ID_NUMBER_RE),
    ("mobile", MOBILE_RE),
    ("long_number", re.compile(r"(?<![0-9A-Za-z.])\d{12,}(?![0-9A-Za-z])")),
    ("email", re.compile(r"[A-Za-z0-9._%+-]*@[A-Za-z0-9.-]+")),
    ("plate", PLATE_RE),
    ("birth_date", re.compile(r"\d{4}年\d{1,2}月\d{1,2}日(?:出生|生)")),
    ("online_account", ONLINE_ACCOUNT_RE),
    ("house_number", re.compile(r"(?<=[路街巷弄道村组里段])\d+号")),
    ("house_number", ADDRESS_UNITS_RE),
    ("landline", LANDLINE_RE),
    ("address", HOME_ADDRESS_RE),
    ("grouped_number", GROUPED_NUMBER_RE),
)


def scan_residue(rec: PDPRecord) -> list[Residue]:
    """Anything in the four text fields that still looks like PII: the patterns above, names after a context
    word, and names declared in the person headers wherever they occur."""
    out: list[Residue] = []
    known = header_names(rec.person_info)
    for f in DEID_FIELDS:
        text = getattr(rec, f)
        for kind, pat in _RESIDUE_PATTERNS:
            for m in pat.finditer(text):
                if kind == "online_account" and m["acc"] == MASK:
                    continue
                out.append(Residue(rec.id, f, kind, m.group(0)))
        names = dict.fromkeys([*find_names(text, known), *(n for n in known if n in text)])
        out += [Residue(rec.id, f, "name", n) for n in names]
    return out
