"""One deterministic model for the integration tests: the answer depends only on the case's user message, so the
fake server (jiancha, lm-eval) and inspect's mock model answer every case alike. Every fifth kind of case gets an
answer the parser rejects, so invalid predictions are part of what must agree."""

from __future__ import annotations

from fake_openai import render_answer_text

LABELS = ("起诉", "相对不起诉", "法定不起诉", "存疑不起诉")


def answer_for(user_text: str) -> str:
    n = len(user_text)
    if n % 5 == 0:
        return "无法判断。"
    return render_answer_text(LABELS[n % 4])


def responder(body: dict, key: str) -> str:
    """For ``FakeOpenAI.responder``."""
    return answer_for(body["messages"][-1]["content"])
