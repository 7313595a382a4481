"""How related two different charges are, from how often judgments of the collection convict of both.

Relevant cases often carry a different charge from the query's: a 故意伤害罪 query is matched by 寻衅滋事罪 and
聚众斗殴罪 judgments, a 受贿罪 one by 非国家工作人员受贿罪 and 贪污罪 ones. Courts join such charges in one judgment
(the same brawl tried as both 寻衅滋事 and 故意伤害), so their co-occurrence in the collection measures the
relation without any label. For charges a and b, with n_a the number of collection documents whose charges include
a and n_ab the number that include both, the co-occurrence Jaccard is

    J(a, b) = n_ab / (n_a + n_b − n_ab)          (0 when n_ab = 0)

and a candidate's relatedness to a query is the largest J(a, b) over the query's charges a and the candidate's
charges b with a ≠ b (a shared charge is what the charge tiers already count), 0 when there is no such pair.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations


@dataclass(frozen=True)
class ChargeCooccurrence:
    """Document counts per charge and per unordered pair of charges of a collection."""

    counts: Counter
    pairs: Counter

    @classmethod
    def fit(cls, doc_charges: Iterable[Sequence[str]]) -> ChargeCooccurrence:
        """Count from each document's charges (repeats within a document count once).

        >>> co = ChargeCooccurrence.fit([("盗窃罪",), ("盗窃罪", "抢劫罪"), ("抢劫罪", "盗窃罪", "盗窃罪")])
        >>> co.counts["盗窃罪"], co.pairs[("抢劫罪", "盗窃罪")]
        (3, 2)
        """
        counts: Counter = Counter()
        pairs: Counter = Counter()
        for charges in doc_charges:
            s = sorted(set(charges))
            counts.update(s)
            pairs.update(combinations(s, 2))
        return cls(counts, pairs)

    def jaccard(self, a: str, b: str) -> float:
        """J(a, b) of the module docstring; 1.0 for a == b seen in the collection, 0.0 for unseen charges.

        >>> co = ChargeCooccurrence.fit([("盗窃罪",), ("盗窃罪", "抢劫罪"), ("抢劫罪",), ("诈骗罪",)])
        >>> co.jaccard("盗窃罪", "抢劫罪"), co.jaccard("抢劫罪", "盗窃罪"), co.jaccard("盗窃罪", "诈骗罪")
        (0.3333333333333333, 0.3333333333333333, 0.0)
        """
        if a == b:
            return 1.0 if self.counts.get(a) else 0.0
        n_ab = self.pairs.get((a, b) if a < b else (b, a), 0)
        return n_ab / (self.counts[a] + self.counts[b] - n_ab) if n_ab else 0.0

    def relatedness(self, query_charges: Sequence[str], doc_charges: Sequence[str]) -> float:
        """Largest J(a, b) over a in ``query_charges``, b in ``doc_charges``, a ≠ b (0.0 without such a pair).

        >>> co = ChargeCooccurrence.fit([("盗窃罪", "抢劫罪"), ("抢劫罪",), ("故意伤害罪", "寻衅滋事罪")])
        >>> co.relatedness(("盗窃罪",), ("抢劫罪",)), co.relatedness(("盗窃罪",), ("盗窃罪",))
        (0.5, 0.0)
        >>> co.relatedness(("盗窃罪", "故意伤害罪"), ("寻衅滋事罪", "盗窃罪"))
        1.0
        """
        return max((self.jaccard(a, b) for a in query_charges for b in doc_charges if a != b), default=0.0)
