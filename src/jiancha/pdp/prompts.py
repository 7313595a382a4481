"""Prompt variants (baseline, definitions, one-shot, custom) built from versioned data files in ``pdp/prompts/``.

- ``baseline`` (the reference code calls it ``original``): [system, user].
- ``definitions``: the system message with the legal definitions of the four decisions appended.
- ``one-shot``: [system, (example user, example assistant) × k, user]; by default one fictional example per
  decision (k = 4, as the paper describes); ``one_shot_classes=("DNP",)`` gives the single-example form of the
  reference code. Classes are codes (P/DNP/SNP/IENP) or label strings.
- ``custom``: a user template file (see ``load_custom_template``).
- ``precedents``: [system, (precedent user, precedent assistant) × k, user]: decided cases retrieved for this case
  from a training pool (``jiancha.pdp.precedent_prompts``), each shown with its facts (cut at
  ``precedent_chars`` characters), cited articles, the prosecutor's reasoning and the decision.

Every run records ``PROMPT_VERSION`` and ``messages_hash`` of the exact messages it sent.
"""

from __future__ import annotations

import functools
import importlib.resources
import json
import os
import string
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jiancha._util.hashing import stable_hash
from jiancha.datasets.records import PDP_INPUT_FIELDS, PDPRecord
from jiancha.errors import ConfigError, DataError
from jiancha.law.articles import Law
from jiancha.law.labels import LEVEL2_LABELS, Decision
from jiancha.pdp import format as fmt
from jiancha.pdp.answers import render_answer

VARIANTS = ("baseline", "definitions", "one-shot", "custom", "precedents")
#: Variants that need more than the case itself: a template file, a precedent pool.
EXTERNAL_VARIANTS = ("custom", "precedents")
#: Other names accepted for the variants (the reference code's names, underscores).
VARIANT_ALIASES = {"original": "baseline", "one_shot": "one-shot", "oneshot": "one-shot",
                   "definition": "definitions", "precedent": "precedents"}
#: Template engines of custom templates.
ENGINES = ("jinja2", "format")

_PROMPT_DIR = "prompts"


def _data_file(name: str) -> str:
    return importlib.resources.files("jiancha.pdp").joinpath(_PROMPT_DIR, name).read_text(encoding="utf-8")


@functools.cache
def prompt_version() -> str:
    """Version string of the packaged prompt files (``prompts/VERSION``)."""
    return _data_file("VERSION").strip()


def format_context() -> dict[str, Any]:
    """The format variables every template may use (all strings come from ``jiancha.pdp.format``)."""
    return {
        "labels": fmt.LABELS_JOINED, "label_list": list(LEVEL2_LABELS),
        "sec_articles": fmt.SECTION_ARTICLES, "sec_analysis": fmt.SECTION_ANALYSIS,
        "sec_conclusion": fmt.SECTION_CONCLUSION, "decision_prefix": fmt.DECISION_PREFIX,
        "cl": fmt.LAW_LINE_PREFIXES[Law.CRIMINAL_LAW], "cpl": fmt.LAW_LINE_PREFIXES[Law.CRIMINAL_PROCEDURE],
        "cpr": fmt.LAW_LINE_PREFIXES[Law.PROCURATORATE_RULES], "sep": fmt.ARTICLE_SEPARATOR,
        "in_person": fmt.INPUT_PERSON, "in_procedure": fmt.INPUT_PROCEDURE, "in_fact": fmt.INPUT_FACT,
    }


def _jinja_env():
    import jinja2

    return jinja2.Environment(undefined=jinja2.StrictUndefined, autoescape=False, keep_trailing_newline=False)


@functools.cache
def _packaged_template(name: str):
    return _jinja_env().from_string(_data_file(name))


def _render_packaged(name: str, **fields: Any) -> str:
    return _packaged_template(name).render(**format_context(), **fields).strip()


@dataclass(frozen=True)
class OneShotExample:
    code: str
    person_info: str
    procedure: str
    fact: str
    articles: tuple[str, ...]
    analysis: str

    @property
    def decision(self) -> str:
        return Decision.from_code(self.code).value


@functools.cache
def load_examples() -> dict[str, OneShotExample]:
    """The packaged fictional examples by code (P, DNP, SNP, IENP)."""
    import yaml

    out: dict[str, OneShotExample] = {}
    for i, e in enumerate(yaml.safe_load(_data_file("examples.yaml"))):
        ex = OneShotExample(code=e["code"], person_info=e["person_info"], procedure=e["procedure"],
                            fact=e["fact"], articles=tuple(e["articles"]), analysis=e["analysis"])
        out[Decision.from_code(ex.code).code] = ex
    return out


def normalise_variant(variant: str) -> str:
    v = VARIANT_ALIASES.get(variant, variant)
    if v not in VARIANTS:
        raise ConfigError(f"unknown prompt variant {variant!r}; expected one of {', '.join(VARIANTS)}")
    return v


def normalise_classes(classes: tuple[str, ...] | list[str] | None) -> tuple[str, ...]:
    """Codes in table order for one-shot examples; accepts codes (any case) and label strings."""
    if classes is None:
        return tuple(d.code for d in Decision)
    out: list[str] = []
    for c in classes:
        try:
            d = Decision(c) if c in LEVEL2_LABELS else Decision.from_code(c)
        except ValueError:
            raise ConfigError(f"unknown one-shot class {c!r}; expected codes "
                              f"{', '.join(d.code for d in Decision)} or labels {', '.join(LEVEL2_LABELS)}") from None
        if d.code not in out:
            out.append(d.code)
    if not out:
        raise ConfigError("one-shot classes are empty; give at least one of P, DNP, SNP, IENP")
    order = [d.code for d in Decision]
    return tuple(sorted(out, key=order.index))


# --- custom templates ------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class CustomTemplate:
    """A user's prompt: ``system`` (optional) and ``user`` templates, rendered with ``engine``.

    File formats accepted by ``load_custom_template``:

    - YAML or JSON (``.yaml``/``.yml``/``.json``): a mapping with ``user`` (required), ``system`` (optional) and
      ``engine`` (``jinja2`` or ``format``; default: ``jinja2`` if a template contains ``{{``, else ``format``).
    - any other file: the whole text is the user template; no system message.

    Fields: ``person_info``, ``procedure``, ``fact``, ``id`` and the format variables of ``format_context()``.
    """

    user: str
    system: str | None = None
    engine: str = "jinja2"
    source: str = ""


def _guess_engine(*texts: str | None) -> str:
    return "jinja2" if any(t and ("{{" in t or "{%" in t) for t in texts) else "format"


def load_custom_template(path: str | os.PathLike) -> CustomTemplate:
    p = Path(path)
    if not p.is_file():
        raise ConfigError(f"prompt template file {str(p)!r} not found; pass an existing file with --template")
    text = p.read_text(encoding="utf-8")
    if p.suffix.lower() in (".yaml", ".yml", ".json"):
        import yaml

        try:
            data = json.loads(text) if p.suffix.lower() == ".json" else yaml.safe_load(text)
        except (json.JSONDecodeError, yaml.YAMLError) as exc:
            raise DataError(f"not valid {p.suffix[1:].upper()} ({exc})", path=str(p)) from None
        if not isinstance(data, dict) or not isinstance(data.get("user"), str):
            raise DataError("expected a mapping with a string 'user' template (and optional 'system', 'engine')",
                            path=str(p), field="user")
        unknown = set(data) - {"user", "system", "engine"}
        if unknown:
            raise DataError(f"unknown keys {sorted(unknown)}; expected user, system, engine", path=str(p))
        system = data.get("system")
        if system is not None and not isinstance(system, str):
            raise DataError("'system' must be a string", path=str(p), field="system")
        engine = data.get("engine") or _guess_engine(data["user"], system)
        if engine not in ENGINES:
            raise DataError(f"unknown engine {engine!r}; expected one of {', '.join(ENGINES)}", path=str(p),
                            field="engine")
        tpl = CustomTemplate(user=data["user"], system=system, engine=engine, source=str(p))
    else:
        tpl = CustomTemplate(user=text, system=None, engine=_guess_engine(text), source=str(p))
    _check_fields(tpl)
    return tpl


def _allowed_fields() -> set[str]:
    return set(PDP_INPUT_FIELDS) | {"id"} | set(format_context())


def _check_fields(tpl: CustomTemplate) -> None:
    allowed = _allowed_fields()
    for name, text in (("user", tpl.user), ("system", tpl.system)):
        if text is None:
            continue
        if tpl.engine == "format":
            try:
                fields = {f.split(".")[0].split("[")[0] for _, f, _, _ in string.Formatter().parse(text) if f}
            except ValueError as exc:
                raise DataError(f"bad str.format template ({exc})", path=tpl.source, field=name) from None
        else:
            import jinja2
            import jinja2.meta

            try:
                fields = jinja2.meta.find_undeclared_variables(_jinja_env().parse(text))
            except jinja2.TemplateSyntaxError as exc:
                raise DataError(f"bad Jinja2 template ({exc})", path=tpl.source, field=name) from None
        unknown = sorted(set(fields) - allowed)
        if unknown:
            raise DataError(f"unknown template fields {unknown}; allowed: {', '.join(sorted(allowed))}",
                            path=tpl.source, field=name)


@functools.lru_cache(maxsize=16)
def _load_custom_cached(path: str, mtime_ns: int) -> CustomTemplate:
    return load_custom_template(path)


def _render_custom(text: str, engine: str, fields: dict[str, Any]) -> str:
    if engine == "format":
        return text.format(**fields).strip()
    return _custom_jinja(text).render(**fields).strip()


@functools.lru_cache(maxsize=32)
def _custom_jinja(text: str):
    return _jinja_env().from_string(text)


# --- messages --------------------------------------------------------------------------------------------------

def _case_fields(record: PDPRecord | Mapping[str, Any]) -> dict[str, str]:
    get = record.get if isinstance(record, Mapping) else lambda k, d="": getattr(record, k, d)
    return {k: str(get(k, "") or "").strip() for k in (*PDP_INPUT_FIELDS, "id")}


def render_system(variant: str = "baseline") -> str:
    """The system message of a packaged variant."""
    v = normalise_variant(variant)
    system = _render_packaged("system.j2")
    if v == "definitions":
        system = f"{system}\n\n{_render_packaged('definitions.j2')}"
    return system


def render_user(record: PDPRecord | Mapping[str, Any]) -> str:
    f = _case_fields(record)
    return _render_packaged("user.j2", person_info=f["person_info"], procedure=f["procedure"], fact=f["fact"])


#: What a shortened precedent text ends with.
CLIP_MARK = "……"


def clip_text(text: str, max_chars: int | None) -> str:
    """``text`` cut to ``max_chars`` characters (``CLIP_MARK`` appended when cut); unchanged when None.

    >>> clip_text("甲乙丙丁", 2), clip_text("甲乙", 2)
    ('甲乙……', '甲乙')
    """
    text = (text or "").strip()
    if max_chars is None or len(text) <= max_chars:
        return text
    return text[:max_chars] + CLIP_MARK


def precedent_pair(precedent: PDPRecord, max_chars: int | None = None) -> list[dict[str, str]]:
    """One decided case as a worked example: the user message of its inputs (fact cut at ``max_chars``) and an
    assistant answer of its cited articles, the prosecutor's reasoning (cut alike) and its decision."""
    shown = {"person_info": precedent.person_info, "procedure": precedent.procedure,
             "fact": clip_text(precedent.fact, max_chars)}
    answer = render_answer(precedent.decision, list(precedent.relevant_articles),
                           clip_text(precedent.raw_reasoning_and_decision, max_chars))
    return [{"role": "user", "content": render_user(shown)}, {"role": "assistant", "content": answer}]


def build_messages(record: PDPRecord, variant: str = "baseline", *, one_shot_classes: tuple[str, ...] | None = None,
                   template_path: str | None = None, precedents: Sequence[PDPRecord] | None = None,
                   precedent_chars: int | None = None) -> list[dict[str, str]]:
    """Chat messages (``[{"role": ..., "content": ...}, ...]``) for one case.

    ``precedents`` (variant ``precedents`` only) are the decided cases to show, in the order given."""
    v = normalise_variant(variant)
    if (precedents is not None) != (v == "precedents"):
        raise ConfigError("prompt variant 'precedents' needs a precedent pool; pass --precedents-from POOL"
                          if v == "precedents" else
                          f"precedents are only shown by the 'precedents' variant, not {v!r}; pass --prompt "
                          "precedents or drop --precedents-from")
    if v == "custom":
        if template_path is None:
            raise ConfigError("prompt variant 'custom' needs a template file; pass --template FILE")
        st = os.stat(template_path) if os.path.exists(template_path) else None
        tpl = _load_custom_cached(str(template_path), st.st_mtime_ns if st else 0)
        fields = {**format_context(), **_case_fields(record)}
        msgs = [{"role": "system", "content": _render_custom(tpl.system, tpl.engine, fields)}] if tpl.system else []
        msgs.append({"role": "user", "content": _render_custom(tpl.user, tpl.engine, fields)})
        return msgs
    if template_path is not None:
        raise ConfigError(f"a template file is only used by the 'custom' variant, not {v!r}; "
                          "pass --prompt custom or drop --template")
    if one_shot_classes is not None and v != "one-shot":
        raise ConfigError(f"one-shot classes only apply to the 'one-shot' variant, not {v!r}")
    messages = [{"role": "system", "content": render_system(v)}]
    for p in precedents or ():
        messages.extend(precedent_pair(p, precedent_chars))
    if v == "one-shot":
        examples = load_examples()
        for code in normalise_classes(one_shot_classes):
            ex = examples[code]
            messages.append({"role": "user", "content": render_user(ex.__dict__)})
            messages.append({"role": "assistant", "content": render_answer(ex.code, list(ex.articles), ex.analysis)})
    messages.append({"role": "user", "content": render_user(record)})
    return messages


def messages_hash(messages: list[dict[str, str]]) -> str:
    """Stable hash of the exact messages sent (recorded by every run): SHA-256 of their canonical JSON, 16 hex."""
    return stable_hash([{"role": m["role"], "content": m["content"]} for m in messages])


def prompt_spec(variant: str = "baseline", *, one_shot_classes: tuple[str, ...] | None = None,
                template_path: str | None = None) -> dict[str, Any]:
    """What identifies a prompt setting, for manifests: variant, version, one-shot classes, template hash, and
    the hash of the messages built for an empty case (changes whenever any prompt text changes). The precedent
    settings of the ``precedents`` variant are added by ``jiancha.pdp.precedent_prompts.precedent_spec``."""
    v = normalise_variant(variant)
    probe = PDPRecord(id="", person_info="", procedure="", fact="", decision="")
    spec: dict[str, Any] = {"variant": v, "version": prompt_version()}
    if v == "one-shot":
        spec["one_shot_classes"] = list(normalise_classes(one_shot_classes))
    if v == "custom" and template_path is not None:
        from jiancha._util.hashing import file_sha256

        spec["template"] = str(template_path)
        spec["template_sha256"] = file_sha256(template_path)
    spec["template_hash"] = messages_hash(build_messages(
        probe, v, one_shot_classes=one_shot_classes, template_path=template_path,
        precedents=() if v == "precedents" else None))
    return spec
