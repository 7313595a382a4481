"""Charge-aware re-ranking: candidates whose primary charge is one of the query's charges first, BM25 breaks ties.

Query charges come from the dataset (LeCaRD v1 ``crime``) when present, else from the charge matcher
(:func:`jiancha.law.charges.find_charges`) over the query text. A candidate's charges come from its ``charge``
field (LeCaRDv2) or from the matcher over its judgment (``result``, then ``reason``); its *primary* charge is the
first one. The score is ``tier + bm25_scaled`` with ``bm25_scaled`` in [0, 1), so the BM25 order is kept inside
each tier:

- ``overlap_weight`` if any charge is shared, plus ``primary_weight`` if the candidate's primary charge is among
  the query's charges, plus ``exact_weight`` if the candidate's set of charges equals the query's, plus
  ``jaccard_weight`` × |shared| / |union|;
- 0 when no charge is shared, or ``section_weight`` when a charge of the candidate lies in the same Criminal Law
  分则 division as one of the query's (the same section, 节, in chapters 3 and 6; the same chapter elsewhere;
  :mod:`jiancha.law.divisions`); with ``prf_depth`` > 0 a candidate whose primary charge is the primary charge of
  one of the ``prf_depth`` best BM25 candidates (pseudo-relevance feedback: charges the query's nearest
  judgments were convicted of) gets ``prf_weight``, added to the tiers above.

With ``reason_charges`` (the default) a candidate's charges are extended by the charges its court reasoning
(``reason``; LeCaRD v1 ``cpfxgc``) names: the charge the prosecution brought when the court convicted of another,
the related charges it ruled out. Its primary charge is unchanged. The base score inside each tier is BM25, or with
``qld_weight`` > 0 the z-scored BM25 plus ``qld_weight`` × the z-scored QLD score (:func:`lexical_scores`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from jiancha.errors import ConfigError
from jiancha.law.patterns import CLAUSE_RE
from jiancha.law.phrases import CHARGE_STATEMENT_MARKERS, INDICTMENT_MARKER

ChargeFinder = Callable[[str], list[str]]


@dataclass(frozen=True)
class ChargeConfig:
    """Tier weights (defaults tuned on LeCaRD v1's labelled queries, see docs/retrieval-results.md)."""

    primary_weight: float = field(default=1.0, metadata={"help": "charge: weight of a shared primary charge."})
    overlap_weight: float = field(default=1.0, metadata={"help": "charge: weight of any shared charge."})
    exact_weight: float = field(default=0.0, metadata={"help": "charge: weight of an identical charge set."})
    jaccard_weight: float = field(default=1.0, metadata={"help": "charge: weight of the charge-set Jaccard."})
    prf_depth: int = field(default=0, metadata={"help": "charge: BM25 neighbours whose primary charges vote."})
    prf_weight: float = field(default=0.0, metadata={"help": "charge: weight of a feedback primary charge."})
    reason_charges: bool = field(default=True, metadata={
        "help": "charge: also count the charges the court's reasoning names."})
    guess_charges: bool = field(default=True, metadata={
        "help": "charge: for a query with no charge field whose text names none (LeCaRDv2), guess its charges "
                "with a classifier trained on the candidates' facts → verdict charges; tiers averaged over the 5 "
                "likeliest."})
    guess_balanced: bool = field(default=False, metadata={
        "help": "charge: train that classifier with every charge weighted alike (rare charges guessed right more "
                "often, common ones a little less often)."})
    section_weight: float = field(default=0.0, metadata={
        "help": "charge: weight of a charge in the same Criminal Law section."})
    qld_weight: float = field(default=0.0, metadata={
        "help": "charge: weight of z-scored QLD added to z-scored BM25 in tiers."})


def charge_tiers(query_charges: Sequence[str], doc_charges: Sequence[Sequence[str]],
                 config: ChargeConfig = ChargeConfig(), feedback: Sequence[str] = ()) -> np.ndarray:
    """Tier value per document (see module docstring). A query without charges puts every document in tier 0.

    >>> charge_tiers(["盗窃罪"], [["盗窃罪"], ["抢劫罪", "盗窃罪"], ["诈骗罪"], []]).tolist()
    [3.0, 1.5, 0.0, 0.0]
    """
    qs = set(query_charges)
    fb = set(feedback)
    q_divisions = charges_divisions(qs) if config.section_weight else frozenset()
    out = np.zeros(len(doc_charges), dtype=np.float64)
    for i, cs in enumerate(doc_charges):
        if fb and cs and cs[0] in fb:
            out[i] += config.prf_weight
        if not qs.intersection(cs):
            if q_divisions and cs and q_divisions & charges_divisions(cs):
                out[i] += config.section_weight
            continue
        ds = set(cs)
        out[i] += (config.overlap_weight + (config.primary_weight if cs[0] in qs else 0.0)
                  + (config.exact_weight if ds == qs else 0.0)
                  + config.jaccard_weight * len(ds & qs) / len(ds | qs))
    return out


def charges_divisions(charges: Sequence[str]) -> frozenset:
    """The Criminal Law 分则 divisions (chapter, section) of a set of charges (unknown names contribute none)."""
    from jiancha.law.divisions import charge_divisions

    return frozenset(d for c in charges for d in charge_divisions(c))


def feedback_charges(doc_charges: Sequence[Sequence[str]], base_scores: np.ndarray, id_order: np.ndarray,
                     depth: int) -> tuple[str, ...]:
    """Primary charges of the ``depth`` best documents by ``base_scores`` (ties by id), first-seen order."""
    if depth <= 0 or len(base_scores) == 0:
        return ()
    from jiancha.retrieval.ranking import top_k

    out: list[str] = []
    for i in top_k(base_scores, id_order, depth):
        cs = doc_charges[i]
        if cs and cs[0] not in out:
            out.append(cs[0])
    return tuple(out)


def scale_unit(scores: np.ndarray) -> np.ndarray:
    """Order-preserving map of scores into [0, 1): (s - min) / (max - min) · 0.999 (constant scores → 0)."""
    s = np.asarray(scores, dtype=np.float64)
    if s.size == 0:
        return s
    lo, hi = float(s.min()), float(s.max())
    if hi <= lo:
        return np.zeros_like(s)
    return (s - lo) / (hi - lo) * 0.999


def standardise(scores: np.ndarray) -> np.ndarray:
    """(s - mean) / std (constant scores → 0)."""
    s = np.asarray(scores, dtype=np.float64)
    sd = float(s.std()) if s.size else 0.0
    return (s - s.mean()) / sd if sd > 0 else np.zeros_like(s)


def lexical_scores(bm25: np.ndarray, qld: np.ndarray | None = None, qld_weight: float = 0.0) -> np.ndarray:
    """The base score inside the tiers: BM25 alone, or with ``qld_weight`` > 0 the fusion
    ``z(bm25) + qld_weight · z(qld)`` of the two per-query standardised scores.

    >>> lexical_scores(np.array([1.0, 3.0]), np.array([0.0, 0.0]), 0.5).tolist()
    [-1.0, 1.0]
    """
    if qld_weight <= 0 or qld is None:
        return np.asarray(bm25, dtype=np.float64)
    return standardise(bm25) + qld_weight * standardise(qld)


def charge_scores(tiers: np.ndarray, base_scores: np.ndarray) -> np.ndarray:
    """``tiers + scale_unit(base_scores)``: the tier decides, the base score orders each tier."""
    return np.asarray(tiers, dtype=np.float64) + scale_unit(base_scores)




def query_charges_from_text(texts: Sequence[str], find: ChargeFinder) -> tuple[str, ...]:
    """Charges of a query without a charge field: in the first text that yields any, those found after the
    first 指控 (the indictment), else anywhere in it.

    >>> query_charges_from_text(["曾因犯盗窃罪被判处拘役。检察院指控被告人犯诈骗罪。"],
    ...                         lambda t: [c for c in ("盗窃罪", "诈骗罪") if c in t])
    ('诈骗罪',)
    """
    for text in texts:
        if not text:
            continue
        i = text.find(INDICTMENT_MARKER)
        found = find(text[i:]) if i >= 0 else []
        if not found:
            found = find(text)
        if found:
            return tuple(found)
    return ()


def stated_charges(text: str, find: ChargeFinder) -> tuple[str, ...]:
    """Charges the text attributes to the suspect: those in a clause after one of
    :data:`~jiancha.law.phrases.CHARGE_STATEMENT_MARKERS` (指控…, 涉嫌…), in order, without repeats.

    >>> find = lambda t: [c for c in ("盗窃罪", "诈骗罪", "帮助信息网络犯罪活动罪") if c in t]
    >>> stated_charges("将银行卡卖给他人，被用于接收诈骗罪所得。", find), stated_charges("因涉嫌盗窃罪被拘留。经查…诈骗罪", find)
    ((), ('盗窃罪',))
    """
    out: list[str] = []
    for m in CLAUSE_RE.finditer(text):
        clause = m.group(0)
        starts = [i for i in (clause.find(w) for w in CHARGE_STATEMENT_MARKERS) if i >= 0]
        if starts:
            out += [c for c in find(clause[min(starts):]) if c not in out]
    return tuple(out)


def current_clauses(text: str) -> list[str]:
    """The clauses of ``text`` not about a prior conviction (a sentence with 曾因 / 前科 / 刑满释放…:
    :data:`~jiancha.law.verdicts.PRIOR_CONVICTION_MARKERS`), whose crimes are not the case's.

    >>> current_clauses("何某曾因抢劫被判处有期徒刑四年，2020年刑满释放。2021年扒窃手机一部。")
    ['2021年扒窃手机一部']
    """
    from jiancha.law.verdicts import PRIOR_CONVICTION_MARKERS

    return [m.group(0) for m in CLAUSE_RE.finditer(text) if not any(w in m.group(0) for w in PRIOR_CONVICTION_MARKERS)]


def this_case(text: str) -> str:
    """What a charge classifier reads of a text: its :func:`current_clauses` joined by 。 (曾因犯抢劫罪… names a
    charge that is not this case's)."""
    return "。".join(current_clauses(text))


def find_case_charges(text: str) -> list[str]:
    """:func:`~jiancha.law.charges.find_charges` as case retrieval uses it: a charge the prosecution brought and the
    court rejected is kept, as it still tells what the facts are about (leaving them out costs the cross-validated
    ``ltr`` ranking of LeCaRD v1 0.002 NDCG@10 and 0.009 MAP)."""
    from jiancha.law.charges import find_charges

    return find_charges(text, include_mentions=True)


def named_charges(text: str) -> list[str]:
    """Charges ``text`` names as charges, for a judgment's charge list: a name ending in 罪 (参与赌博, 作伪证 name
    acts, not charges), that the court finds (:func:`~jiancha.law.charges.find_charges`: not denied, not an
    accusation it rejects, in the same sentence or another), outside the title of a law or interpretation in 《》,
    outside a clause about a prior conviction (:func:`current_clauses`) and outside the prior sentence a verdict
    combines with its own (与前罪故意伤害罪判处的…并罚: :data:`~jiancha.law.verdicts.COMBINED_WITH_PRIOR_RE`); in
    order.

    >>> named_charges("参与赌博人员多。依照《关于审理抢劫、抢夺刑事案件适用法律若干问题的意见》，构成开设赌场罪")
    ['开设赌场罪']
    >>> named_charges("曾因犯盗窃罪被判处有期徒刑。其行为不构成诈骗罪，构成敲诈勒索罪")
    ['敲诈勒索罪']
    >>> named_charges("被告人王某犯盗窃罪，判处有期徒刑十个月，与前罪故意伤害罪判处的有期徒刑一年并罚，决定执行有期徒刑一年八个月")
    ['盗窃罪']
    >>> named_charges("公诉机关指控被告人犯抢劫罪的罪名不当，本院予以纠正。被告人的行为构成抢夺罪")
    ['抢夺罪']
    """
    from jiancha.law.charges import find_charges, iter_charge_matches
    from jiancha.law.patterns import DOCUMENT_TITLE_RE
    from jiancha.law.verdicts import COMBINED_WITH_PRIOR_RE

    clauses = current_clauses(COMBINED_WITH_PRIOR_RE.sub("", DOCUMENT_TITLE_RE.sub("《》", text)))
    found = set(find_charges("。".join(clauses)))
    out: list[str] = []
    for clause in clauses:
        named = {c for _, _, surface, current in iter_charge_matches(clause) if surface.endswith("罪") for c in current}
        out += [c for c in find_charges(clause, include_mentions=True) if c in named and c in found and c not in out]
    return out


def mentioned_charges(text: str, find: ChargeFinder) -> tuple[str, ...]:
    """Charges ``text`` mentions outside a prior conviction (:func:`current_clauses`), in order, without repeats.

    >>> find = lambda t: [c for c in ("盗窃罪", "抢劫罪") if c in t]
    >>> mentioned_charges("嫌疑人曾因犯盗窃罪被判处有期徒刑一年。后持刀抢劫罪行败露。", find)
    ('抢劫罪',)
    """
    out: list[str] = []
    for clause in current_clauses(text):
        out += [c for c in find(clause) if c not in out]
    return tuple(out)


#: Nearest candidates whose primary charges vote for a query's charges when its text names none.
CHARGE_VOTERS = 5
#: How a neighbour's vote counts: ``rank``, 1 / (r + 1) at rank r (0 = best), so that the best text match is not
#: outvoted by weaker matches of a charge the collection holds more of; ``uniform``, one each.
VOTE_WEIGHTINGS: tuple[str, ...] = ("rank", "uniform")


def charge_votes(neighbour_charges: Sequence[Sequence[str]], weighting: str = "rank",
                 mentioned: Sequence[str] = ()) -> dict[str, float]:
    """Each primary charge's share of the vote of the nearest candidates (best first) and of the ``mentioned``
    charges (one vote each, as much as the best candidate's); shares sum to 1, in order of first appearance; no
    charges, no votes.

    >>> {c: round(v, 4) for c, v in charge_votes([["抢劫罪"], ["故意伤害罪"], ["故意伤害罪"], []]).items()}
    {'抢劫罪': 0.5455, '故意伤害罪': 0.4545}
    >>> charge_votes([["抢劫罪"], ["故意伤害罪"], ["故意伤害罪"]], "uniform")
    {'抢劫罪': 0.3333333333333333, '故意伤害罪': 0.6666666666666666}
    >>> charge_votes([["诈骗罪"]], mentioned=["盗窃罪"])
    {'盗窃罪': 0.5, '诈骗罪': 0.5}
    """
    if weighting not in VOTE_WEIGHTINGS:
        raise ConfigError(f"unknown vote weighting {weighting!r}; expected one of {list(VOTE_WEIGHTINGS)}")
    votes: dict[str, float] = {c: 1.0 for c in mentioned}
    for r, cs in enumerate(neighbour_charges):
        if cs:
            votes[cs[0]] = votes.get(cs[0], 0.0) + (1.0 / (r + 1) if weighting == "rank" else 1.0)
    total = sum(votes.values())
    return {c: v / total for c, v in votes.items()}


def expected_tiers(shares: Mapping[str, float], doc_charges: Sequence[Sequence[str]],
                   config: ChargeConfig = ChargeConfig()) -> np.ndarray:
    """Σ_c share_c · tier({c}, d): the tier of each document averaged over the query's possible charges, for a
    query whose charges are only guessed (one share of 1 gives the plain tier).

    >>> expected_tiers({"抢劫罪": 0.6, "盗窃罪": 0.4}, [["抢劫罪"], ["盗窃罪"], ["诈骗罪"]]).round(2).tolist()
    [1.8, 1.2, 0.0]
    """
    out = np.zeros(len(doc_charges), dtype=np.float64)
    for c, w in shares.items():
        out += w * charge_tiers((c,), doc_charges, config)
    return out


def document_charges(fields: Sequence[str], given: Sequence[str], find: ChargeFinder,
                     extra: Sequence[str] = ()) -> tuple[str, ...]:
    """The document's charges: ``given`` when non-empty, else those found in the first field that has any; then
    the charges found in the ``extra`` texts (the court's reasoning) that are not yet among them.

    >>> find = lambda t: [c for c in ("盗窃罪", "诈骗罪") if c in t]
    >>> document_charges(("判决被告人犯诈骗罪",), (), find, extra=("公诉机关指控犯盗窃罪，应定诈骗罪",))
    ('诈骗罪', '盗窃罪')
    """
    out: list[str] = list(given)
    if not out:
        for text in fields:
            if text:
                found = find(text)
                if found:
                    out = list(found)
                    break
    for text in extra:
        if text:
            out.extend(c for c in find(text) if c not in out)
    return tuple(out)


def resolve_charge_finder(charge_names: Sequence[str] = ()) -> tuple[ChargeFinder, str]:
    """The charge matcher to use and its name for the manifest.

    :func:`find_case_charges` when ``jiancha.law.charges.find_charges`` is implemented; otherwise (private fallback while that module is
    a stub) a matcher over ``charge_names`` (the dataset's ``criminal charges.txt``).
    """
    from jiancha.law import charges as law_charges

    try:
        law_charges.find_charges("被告人犯盗窃罪")
        return find_case_charges, "jiancha.retrieval.charge.find_case_charges"
    except NotImplementedError:
        if not charge_names:
            from jiancha.errors import ConfigError

            raise ConfigError("the charge method needs a charge matcher: jiancha.law.charges.find_charges is not "
                              "implemented and the dataset has no others/criminal charges.txt") from None
        return _ListChargeFinder(tuple(charge_names)), "dataset-charge-list-fallback"


class _ListChargeFinder:
    """Fallback matcher: exact charge names plus the single-act forms of 、-joined names
    (走私、贩卖、运输、制造毒品罪 also matches 贩卖毒品罪); longest match wins; canonical names returned."""

    def __init__(self, names: tuple[str, ...]):
        import ahocorasick

        self._a = ahocorasick.Automaton()
        patterns: dict[str, str] = {}
        for name in names:
            patterns.setdefault(name, name)
            parts = name.split("、")
            if len(parts) > 1 and len(parts[0]) == 2 and len(parts[-1]) > 3:
                obj = parts[-1][2:]
                for verb in [*parts[:-1], parts[-1][:2]]:
                    if len(verb) == 2:
                        patterns.setdefault(verb + obj, name)
        for pat, canon in patterns.items():
            self._a.add_word(pat, (len(pat), canon))
        self._a.make_automaton()

    def __call__(self, text: str) -> list[str]:
        hits = sorted(((end - ln + 1, -ln, canon) for end, (ln, canon) in self._a.iter(text)))
        out: list[str] = []
        covered_to = -1
        for start, neg_len, canon in hits:
            if start <= covered_to:
                continue
            covered_to = start - neg_len - 1
            if canon not in out:
                out.append(canon)
        return out
