"""Parse a model's answer into a decision and cited articles. Shared by the evaluation scorer and RL rewards.

Two modes: ``compat="reference"`` reproduces the published parser exactly (rules below);
``compat="default"`` is robust to what models really emit and gives a reason code for every failure.

Default mode, step by step:

1. Empty or whitespace output: ``empty_output`` (``truncated`` when ``finish_reason == "length"``).
2. Reasoning: keep what follows the *last* ``</think>``. An unterminated ``<think>`` is a truncated answer when
   ``finish_reason == "length"``; otherwise the text after ``<think>`` is parsed as the answer (models that forget
   to close the tag).
3. Decision: the last 【最终结论】 section (also ``## 最终结论``, ``**最终结论**``, ``三、最终结论：``, ``[最终结论]``,
   ``结论：``); in it the first ``决定：``/``决定:`` line (the value may be on the next line); a section with no such
   line is accepted when its first line is a bare label. Without any conclusion section the last ``决定：`` line
   of the whole answer is used. The value is cut at its first sentence end and may carry Markdown, a gloss
   (``相对不起诉（酌定不起诉）``), a synonym (``酌定不起诉``, ``绝对不起诉``, ``证据不足不起诉``…) or a code
   (``DNP``); two different decisions in one value are ``unknown_label``.
4. Articles: the 【适用法条】 section (any heading form) up to the next section; split at each law name (``刑法：``,
   ``《中华人民共和国刑法》``, ``刑事诉讼规则``…), each part parsed by ``jiancha.law.articles.parse_articles`` with that
   law as default (Arabic numerals, articles on following lines, ``《刑法》第264条`` all work); returned as
   canonical strings in PDP-Bench order. Another quoted title (``《…解释》``) ends a law's part. Predicted CPL
   numbers are taken as 2018 numbers (gold is unified to 2018 by the scorer).
5. Any failure of an answer with ``finish_reason == "length"`` is reported as ``truncated``.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Literal

from jiancha.law.labels import LABEL_SYNONYMS, LEVEL2_LABELS, Decision
from jiancha.pdp import format as fmt

Compat = Literal["default", "reference"]
COMPAT_MODES: tuple[str, ...] = ("default", "reference")

#: Failure reason codes (default mode).
REASONS = ("no_conclusion", "no_decision_line", "unknown_label", "empty_output", "truncated")
#: Reason given by the scorer to a request that failed (no output at all); not produced by the parser.
REQUEST_FAILED = "request_failed"


@dataclass(frozen=True)
class ParsedAnswer:
    """What a model's answer says, as the scorer and the rewards read it."""

    decision: str | None                  # one of the four label strings, or None when invalid
    relevant_articles: tuple[str, ...]    # canonical strings (default mode) / raw prefixed strings (reference)
    valid: bool
    reason: str | None = None             # one of REASONS when not valid

    def to_dict(self) -> dict:
        return {"decision": self.decision, "relevant_articles": list(self.relevant_articles),
                "valid": self.valid, "reason": self.reason}


def check_compat(compat: str) -> str:
    """``compat`` itself when it is a known mode, else ConfigError listing the modes."""
    if compat not in COMPAT_MODES:
        from jiancha.errors import ConfigError

        raise ConfigError(f"unknown compat mode {compat!r}; expected one of {', '.join(COMPAT_MODES)}")
    return compat


def parse_answer(text: str | None, *, compat: Compat = "default", finish_reason: str | None = None) -> ParsedAnswer:
    """Parse one raw model output. ``finish_reason == "length"`` marks a truncated answer (default mode).

    >>> parse_answer("【最终结论】\\n决定：**相对不起诉**。", compat="reference").decision
    '相对不起诉'
    >>> parse_answer("## 最终结论\\n决定: 酌定不起诉").decision
    '相对不起诉'
    >>> parse_answer("<think>让我想想", finish_reason="length").reason
    'truncated'
    """
    if compat == "reference":
        return _parse_reference(text, finish_reason)
    if compat != "default":
        check_compat(compat)
    return _parse_default(text, finish_reason)


def _invalid(reason: str, articles: tuple[str, ...] = ()) -> ParsedAnswer:
    return ParsedAnswer(None, articles, False, reason)


# --- reference mode (the published parser) ------------------------------------------------------------------------------

def _parse_reference(text: str | None, finish_reason: str | None) -> ParsedAnswer:
    text = text or ""
    i = text.find(fmt.THINK_END)
    if i >= 0:
        text = text[i + len(fmt.THINK_END):]
    articles = _reference_articles(text)
    truncated = finish_reason == "length"
    c = text.find(fmt.SECTION_CONCLUSION)
    if c < 0:
        return _invalid("truncated" if truncated else ("empty_output" if not text.strip() else "no_conclusion"),
                        articles)
    m = fmt.REF_DECISION_LINE.search(text, c)
    if m is None:
        return _invalid("truncated" if truncated else "no_decision_line", articles)
    value = fmt.normalise_reference_decision(m.group(1))
    if value in LEVEL2_LABELS:
        return ParsedAnswer(value, articles, True, None)
    return _invalid("truncated" if truncated else "unknown_label", articles)


def _reference_articles(text: str) -> tuple[str, ...]:
    a = text.find(fmt.SECTION_ARTICLES)
    if a < 0:
        return ()
    section = text[a + len(fmt.SECTION_ARTICLES):]
    end = fmt.REF_ARTICLES_END.search(section)
    if end is not None:
        section = section[:end.start()]
    out: list[str] = []
    for law, pattern in fmt.REF_LAW_LINE.items():
        m = pattern.search(section)
        if m is None:
            continue
        for piece in fmt.REF_ARTICLE_SPLIT.split(m.group(1)):
            piece = piece.strip()
            if piece:
                out.append(f"{law.value}:{piece}")
    return tuple(out)


# --- default mode ----------------------------------------------------------------------------------------------

def _clean(text: str) -> str:
    if fmt.MARKDOWN_CHAR.search(text) is not None:
        return fmt.MARKDOWN_NOISE.sub("", text)
    return text


def _parse_default(text: str | None, finish_reason: str | None) -> ParsedAnswer:
    truncated = finish_reason == "length"
    if text is None or not text.strip():
        return _invalid("truncated" if truncated else "empty_output")
    body = text
    j = body.rfind(fmt.THINK_END)
    if j >= 0:
        body = body[j + len(fmt.THINK_END):]
    else:
        k = body.find(fmt.THINK_START)
        if k >= 0:
            if truncated:
                return _invalid("truncated")
            body = body[k + len(fmt.THINK_START):]
    if not body.strip():
        return _invalid("truncated" if truncated else "empty_output")
    articles = _default_articles(body)
    decision, reason = _default_decision(body)
    if decision is None:
        return _invalid("truncated" if truncated else reason, articles)
    return ParsedAnswer(decision, articles, True, None)


def _default_decision(body: str) -> tuple[str | None, str]:
    # fast path: the exact marker, as the prompt asks
    c = body.rfind(fmt.SECTION_CONCLUSION)
    if c >= 0:
        found, label, reason = _decision_in_region(_clean(body[c + len(fmt.SECTION_CONCLUSION):]))
        if found:
            return label, reason
    clean = _clean(body)
    # str containment first: the heading regexes are slow on long texts that cannot match
    heads = list(fmt.HEADING_CONCLUSION.finditer(clean)) if fmt.CONCLUSION_SHORT_NAME in clean else []
    if heads:
        for h in reversed(heads):
            found, label, reason = _decision_in_region(clean[h.end():])
            if found:
                return label, reason
        return None, "no_decision_line"
    lines = list(fmt.DECISION_LINE.finditer(clean)) if fmt.DECISION_KEY in clean else []
    if lines:
        last = lines[-1]
        return _label_from_value(last.group(1), clean[last.end():])
    return None, "no_conclusion"


def _decision_in_region(region: str) -> tuple[bool, str | None, str]:
    """(found a decision statement, label or None, reason) for the text after a conclusion heading."""
    m = fmt.DECISION_LINE.search(region)
    if m is not None:
        label, reason = _label_from_value(m.group(1), region[m.end():])
        return True, label, reason
    first = _first_line(region)
    if first is not None:
        label = _label_only(first)
        if label is not None:
            return True, label, ""
    return False, None, "no_decision_line"


def _first_line(text: str) -> str | None:
    for line in text.split("\n", 3)[:3]:
        line = line.strip(fmt.VALUE_PUNCT)
        if line:
            return line
    return None


def _label_only(line: str) -> str | None:
    """The label when a line is nothing but a label (with an optional gloss), else None."""
    label, _ = _label_from_value(line, "")
    if label is None:
        return None
    core = fmt.VALUE_SENTENCE_END.split(line, 1)[0].strip(fmt.VALUE_PUNCT)
    key = fmt.SHORT_KEY.match(core)          # 处理意见：相对不起诉 / 建议：起诉
    if key is not None:
        core = core[key.end():]
    core = core.split("（", 1)[0].split("(", 1)[0].strip(fmt.VALUE_PUNCT)
    return label if core in LABEL_SYNONYMS or fmt.LABEL_CODE.match(core) else None


def _label_from_value(value: str, rest: str) -> tuple[str | None, str]:
    v = value.strip(fmt.VALUE_PUNCT)
    if not v:
        v = _first_line(rest) or ""
    v = fmt.VALUE_SENTENCE_END.split(v, 1)[0].strip(fmt.VALUE_PUNCT)
    if not v:
        return None, "unknown_label"
    return _label_of(v)


@functools.lru_cache(maxsize=4096)
def _label_of(v: str) -> tuple[str | None, str]:
    found = {LABEL_SYNONYMS[m.group()] for m in fmt.LABEL_MENTION.finditer(v)}
    if len(found) == 1:
        return found.pop().value, ""
    if not found:
        code = fmt.LABEL_CODE.match(v.split("（", 1)[0].split("(", 1)[0].strip())
        if code:
            return Decision.from_code(code.group(1)).value, ""
    return None, "unknown_label"


def _default_articles(body: str) -> tuple[str, ...]:
    a = body.find(fmt.SECTION_ARTICLES)
    if a >= 0:
        start = a + len(fmt.SECTION_ARTICLES)
        ends = [e for e in (body.find(fmt.SECTION_ANALYSIS, start), body.find(fmt.SECTION_CONCLUSION, start))
                if e >= 0]
        return articles_in_region(body[start:min(ends) if ends else len(body)])
    if not any(k in body for k in fmt.ARTICLES_HEADING_KEYS):
        return ()
    clean = _clean(body)
    m = fmt.HEADING_ARTICLES.search(clean)
    if m is None:
        return ()
    ends = [e.start() for e in (fmt.HEADING_ANALYSIS.search(clean, m.end()),
                                fmt.HEADING_CONCLUSION.search(clean, m.end())) if e is not None]
    return articles_in_region(clean[m.end():min(ends) if ends else len(clean)])


@functools.lru_cache(maxsize=65536)
def articles_in_region(region: str) -> tuple[str, ...]:
    """Canonical strings of the articles cited in a 【适用法条】 body, PDP-Bench order."""
    from jiancha.law.articles import canonical_sort, parse_articles

    region = _clean(region)
    laws = list(fmt.LAW_NAME.finditer(region))
    refs = []
    if not laws:
        refs.extend(parse_articles(region))
    for i, m in enumerate(laws):
        seg = region[m.end(): laws[i + 1].start() if i + 1 < len(laws) else len(region)]
        other_title = seg.find("《")
        if other_title >= 0:
            seg = seg[:other_title]
        seg = seg.lstrip(" \t：:")
        if seg:
            refs.extend(parse_articles(seg, default_law=fmt.law_of_name(m)))
    return tuple(canonical_sort([r.canonical() for r in refs]))
