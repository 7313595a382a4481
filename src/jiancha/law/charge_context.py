"""Where a charge is named, and whether the text finds it: the sentence around a match of
:func:`jiancha.law.charges.iter_charge_matches`, an accusation and the court's rejection of it, a denial, a defence's
proposal the court rejects, another person's offence. :func:`jiancha.law.charges.find_charges` asks these; the
words they look for are in :mod:`jiancha.law.patterns`.
"""

from __future__ import annotations

from jiancha.law import patterns as P
from jiancha.law.patterns import CRIME_SUFFIX

#: A match: (start, end, surface, current charge names).
Match = tuple[int, int, str, tuple[str, ...]]


def sentence_begin(text: str, at: int) -> int:
    return max(text.rfind("。", 0, at), text.rfind("；", 0, at)) + 1


def is_accused(text: str, start: int, end: int) -> bool:
    """Whether the charge at ``text[start:end]`` is named in an accusation: after 指控 in its sentence (公诉机关指控
    被告人犯…罪), where that 指控 does not open the court's rejection of the accusation's charge (指控的罪名不当，本院
    予以纠正，被告人构成盗窃罪 is the court's finding: ``patterns.CHARGE_NAME_REJECTED``); or after 以 with the
    accusation after it (公诉机关以贪污罪对被告人提起公诉: ``patterns.CHARGE_ACCUSED_WITH`` / ``_AFTER``)."""
    if P.CHARGE_ACCUSED_WITH.search(text, max(0, start - 12), start) and P.CHARGE_ACCUSED_AFTER.match(text, end):
        return True
    at = text.rfind(P.CHARGE_ACCUSED, sentence_begin(text, start), start)
    return at >= 0 and P.CHARGE_NAME_REJECTED.match(text, at, start) is None


def rejected_accusation(text: str, start: int, end: int) -> bool:
    """Whether the charges at ``text[start:end]`` are ones the prosecution brought and the court rejects in the same
    sentence (``patterns.CHARGE_REJECTED_AFTER``); asked only of charges named with 罪, as a bare act (侵占, 受贿)
    there is often one fact of several the court does not find."""
    begin = sentence_begin(text, start)
    stop = text.find("。", end)
    stop = len(text) if stop < 0 else stop
    return (is_accused(text, start, end) and P.CHARGE_REJECTED_AFTER.search(text, end, stop) is not None
            and P.CHARGE_REJECTION_ANSWERS.search(text, begin, stop) is None)


def negated_matches(text: str, hits: list[Match], lists: list[tuple[int, int]],
                     rejected: bool) -> list[bool]:
    """Whether each match is denied: a negation before the first charge of a list (``不构成盗窃罪、诈骗罪``) or
    after its last one (``盗窃罪、诈骗罪不能成立``) denies every charge of the list; so does, when ``rejected``, the
    court's rejection of the charges the prosecution brought (:func:`rejected_accusation`)."""
    out = [False] * len(hits)
    for k, j in lists:
        start, end = hits[k][0], hits[j][1]
        denied = P.CHARGE_NEGATION_BEFORE.search(text, max(0, start - P.CHARGE_NEGATION_WINDOW), start) is not None \
            or P.CHARGE_NEGATION_AFTER.match(text, end) is not None \
            or rejected and hits[j][2].endswith(CRIME_SUFFIX) and rejected_accusation(text, start, end)
        out[k:j + 1] = [denied] * (j + 1 - k)
    return out


def unnamed_rejections(text: str, hits: list[Match]) -> set[str]:
    """The charge the prosecution was said to bring (named with 罪 in an accusation) before a sentence in which the
    court rejects the accusation's charge without naming it (``patterns.CHARGE_NAME_REJECTED``), unless that
    sentence tells a defence's submission; and the charge the prosecution replaced by another
    (``patterns.ACCUSATION_CHANGED``: the one named right before 变更为, else the one accused before). Only where the
    accusations before name one charge: of several, the rejection may be of one count (指控该起犯罪的罪名不能成立),
    and which one is not said."""
    def accused_before(at: int) -> set[tuple[str, ...]]:
        return {current for start, end, surface, current in hits
                if end <= at and surface.endswith(CRIME_SUFFIX) and is_accused(text, start, end)}

    out: set[str] = set()
    for m in P.CHARGE_NAME_REJECTED.finditer(text):
        if any(m.start() < h[1] and h[0] < m.end() for h in hits):
            continue
        stop = text.find("。", m.end())
        if P.CHARGE_REJECTION_ANSWERS.search(text, sentence_begin(text, m.start()), len(text) if stop < 0 else stop):
            continue
        if len(accused := accused_before(m.start())) == 1:
            out.update(*accused)
    for m in P.ACCUSATION_CHANGED.finditer(text):
        named = [current for _, end, surface, current in hits if surface.endswith(CRIME_SUFFIX)
                 and 0 <= m.start() - end <= 1]
        replaced = set(named) if named else accused_before(m.start())
        new = {current for start, _, _, current in hits if 0 <= start - m.end() <= 1}
        if len(replaced - new) == 1:
            out.update(*(replaced - new))
    return out


def rejected_submissions(text: str, hits: list[Match]) -> list[bool]:
    """Whether each match is a charge a defence proposes (``patterns.DEFENCE_SUBMISSION``, ``DEFENCE_PROPOSES``; not
    the accused charge it disputes) and the court rejects, answering in that sentence or the next
    (``patterns.DEFENCE_REJECTED`` before any word of acceptance)."""
    out = [False] * len(hits)
    for m in P.DEFENCE_SUBMISSION.finditer(text):
        inside = []
        for k, (start, end, _, _) in enumerate(hits):
            verb = P.DEFENCE_PROPOSES.search(text, max(m.start(), start - P.CHARGE_NEGATION_WINDOW), start) \
                if m.start() <= start < m.end() else None
            if verb and (verb.group(0) != "以" or not is_accused(text, start, end)):   # 以盗窃罪起诉: the accusation
                inside.append(k)
        if not inside:
            continue
        first = text.find("。", m.end())
        second = text.find("。", first + 1) if first >= 0 else -1
        answer = text[m.end():len(text) if second < 0 else second]
        rejected, accepted = P.DEFENCE_REJECTED.search(answer), P.DEFENCE_ACCEPTED.search(answer)
        if rejected and not (accepted and accepted.start() < rejected.start()):
            for k in inside:
                out[k] = True
    return out


def others_offence(text: str, start: int, end: int) -> bool:
    """Whether the bare act at ``text[start:end]`` is someone else's offence (``patterns.OTHERS_OFFENCE_BEFORE``,
    ``patterns.PROCEEDS_AFTER``)."""
    return (P.PROCEEDS_AFTER.match(text, end) is not None
            and P.OTHERS_OFFENCE_BEFORE.search(text, sentence_begin(text, start), start) is not None)


def charge_lists(text: str, hits: list[Match]) -> list[tuple[int, int]]:
    """(first, last) index of each run of matches that form one list (``盗窃罪、诈骗罪``: ``patterns.CHARGE_LIST_GAP``)."""
    out: list[tuple[int, int]] = []
    k = 0
    while k < len(hits):
        j = k
        while j + 1 < len(hits) and P.CHARGE_LIST_GAP.fullmatch(text, hits[j][1], hits[j + 1][0]):
            j += 1
        out.append((k, j))
        k = j + 1
    return out
