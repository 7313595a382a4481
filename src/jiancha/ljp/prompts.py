"""The charge-prediction prompt: a system instruction and the facts with the candidate charges."""

from __future__ import annotations

from jiancha._util.hashing import stable_hash

PROMPT_VERSION = "ljp-charges/1"
CHARGE_SEPARATOR = "、"
JSON_KEY = "charges"

SYSTEM = (
    "你是一名精通《中华人民共和国刑法》的法官助理。请根据案件事实，从给定的候选罪名列表中选出被告人所犯的全部罪名。"
    f"只输出一个JSON对象，格式为 {{\"{JSON_KEY}\": [\"罪名1\", \"罪名2\"]}}；罪名必须与候选列表中的写法完全一致，"
    "不要输出其他内容。"
)


def render_user(fact: str, candidates: tuple[str, ...]) -> str:
    return f"候选罪名：{CHARGE_SEPARATOR.join(candidates)}\n\n案件事实：{fact.strip()}"


def build_ljp_messages(fact: str, candidates: tuple[str, ...]) -> list[dict[str, str]]:
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": render_user(fact, candidates)}]


def prompt_identity(candidates: tuple[str, ...]) -> dict[str, str]:
    """What identifies the prompt: version, system text hash, candidate list hash."""
    return {"version": PROMPT_VERSION, "system_hash": stable_hash(SYSTEM),
            "candidates_hash": stable_hash(list(candidates))}
